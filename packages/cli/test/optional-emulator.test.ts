import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Emulator } from '@kis/emulator';
import { DEFAULT_CC_PAIR_ID } from '@kis/spec/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, emulator, envFor, kis } from './helpers/cli.js';

// A directory for the modules each child process imports first, and what they write.
let dir = '';
beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'kis-startup-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Which packages the binary imports by name (those left outside its bundle), logged by a
// module resolution hook that the child process registers first.
describe('the binary loads @kis/emulator only for the commands that need its flags', () => {
  let log = '';
  let options: { env: Record<string, string> };
  beforeAll(async () => {
    log = join(dir, 'imports.log');
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
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    options = { env: { NODE_OPTIONS: `--import=${pathToFileURL(register).href}` } };
  });

  const importsOf = async (args: string[]) => {
    await rm(log, { force: true });
    const result = await kis(args, options);
    expect(result.code, result.stderr).toBe(0);
    return (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  };

  it('kis --version does not load it', async () => {
    expect(await importsOf(['--version'])).not.toContain('@kis/emulator');
  });

  it('kis emulator --help does', async () => {
    expect(await importsOf(['emulator', '--help'])).toContain('@kis/emulator');
  });
});

// Node's own modules are listed by `process.moduleLoadList`, written at exit by a module that the
// child process imports first.
describe('the binary sends requests without loading node:http2', () => {
  let log = '';
  let emu: Emulator;
  let env: Record<string, string> = {};
  beforeAll(async () => {
    log = join(dir, 'builtins.log');
    const listing = join(dir, 'list-builtins.mjs');
    await writeFile(
      listing,
      `import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(${JSON.stringify(log)}, process.moduleLoadList.join('\\n')));
`,
    );
    emu = await emulator();
    env = { ...envFor(emu), NODE_OPTIONS: `--import=${pathToFileURL(listing).href}` };
  });
  afterAll(async () => {
    await emu?.close();
  });

  it('kis sync of a one-file folder: sent, and neither node:http2 nor node:tls loaded', async () => {
    await mkdir(join(dir, 'notes'));
    await writeFile(join(dir, 'notes', 'a.md'), '# A\n');
    const pair = String(DEFAULT_CC_PAIR_ID);
    const result = await kis(['--json', 'sync', 'notes', '--cc-pair', pair], { env, cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(emu.stats().ingestion.requests).toBe(1);
    const builtins = (await readFile(log, 'utf8')).split('\n');
    expect(builtins).toContain('NativeModule http');
    expect(builtins).not.toContain('NativeModule http2');
    expect(builtins).not.toContain('NativeModule tls');
  });
});
