/**
 * What the binary loads, by module, not by time: a command line loads the command it runs, so
 * `kis --version` and a one-call command such as `kis connector list` never load undici (the
 * client sends their calls on node:http), @kis/node and its extraction libraries, yaml, the file
 * watcher or the progress bar; @kis/emulator and @kis/queue, optional peers, only load for the
 * commands that need them.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Emulator } from '@kis/emulator';
import { OPTIONAL_PACKAGES } from '@kis/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, emulator, envFor, kis } from './helpers/cli.js';

// A directory for the module each child process imports first, and what it writes.
let dir = '';
let log = '';
let options: { env: Record<string, string> };
beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'kis-startup-'));
  log = join(dir, 'loaded.log');
  // Node's public loader hooks: every package imported by name (ESM resolution), and at exit every
  // CommonJS file loaded (undici, commander and cli-progress are CommonJS)
  const hooks = join(dir, 'hooks.mjs');
  await writeFile(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  if (/^[@a-z]/.test(specifier) && !/^[a-z]+:/.test(specifier)) appendFileSync(${JSON.stringify(log)}, specifier + '\\n');
  return next(specifier, context);
}`,
  );
  const register = join(dir, 'register.mjs');
  await writeFile(
    register,
    `import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
register(${JSON.stringify(pathToFileURL(hooks).href)});
const cache = createRequire(import.meta.url).cache;
process.on('exit', () => appendFileSync(${JSON.stringify(log)}, Object.keys(cache).join('\\n') + '\\n'));
`,
  );
  options = { env: { NODE_OPTIONS: `--import=${pathToFileURL(register).href}` } };
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The packages imported by name and the CommonJS files loaded by `kis ARGS…` (exit 0). */
async function loadedBy(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  await rm(log, { force: true });
  const result = await kis(args, { env: { ...options.env, ...env } });
  expect(result.code, result.stderr).toBe(0);
  return (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);
}

/** Whether `loaded` holds the package `name`, imported by name or as a file of its folder. */
const holds = (loaded: readonly string[], name: string) =>
  loaded.some(
    (m) => m === name || m.startsWith(`${name}/`) || m.includes(`/node_modules/${name}/`),
  );

/** What a command that sends nothing in bulk must not load. */
const HEAVY = [
  'undici',
  '@kis/node',
  'yaml',
  'chokidar',
  'cli-progress',
  ...OPTIONAL_PACKAGES.keys(),
];

describe('the binary loads what the command line runs', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await emulator();
  });
  afterAll(() => emu.close());

  it('kis --version loads commander and nothing else by name', async () => {
    const loaded = await loadedBy(['--version']);
    expect(holds(loaded, 'commander')).toBe(true);
    for (const name of [...HEAVY, '@kis/client', '@kis/rules', '@kis/emulator', '@kis/queue']) {
      expect(holds(loaded, name), name).toBe(false);
    }
  });

  it('kis connector list loads the client, and neither undici nor extraction libraries', async () => {
    const loaded = await loadedBy(['connector', 'list'], envFor(emu));
    expect(holds(loaded, '@kis/client')).toBe(true);
    for (const name of [...HEAVY, '@kis/emulator', '@kis/queue']) {
      expect(holds(loaded, name), name).toBe(false);
    }
  });

  it('kis ingest --help does not load @kis/queue, which only queue mode loads', async () => {
    expect(holds(await loadedBy(['ingest', '--help']), '@kis/queue')).toBe(false);
  });

  it('kis emulator --help loads @kis/emulator, for its flags', async () => {
    expect(holds(await loadedBy(['emulator', '--help']), '@kis/emulator')).toBe(true);
  });
});
