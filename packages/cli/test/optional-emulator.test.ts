import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, kis } from './helpers/cli.js';

// A directory for the modules each child process imports first, and what they write.
let dir = '';
beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'kis-startup-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Which packages the binary imports by name, logged by a module resolution hook that the child
// process registers first: @kis/emulator is an optional peer, loaded only when it is needed.
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

  it('nor @kis/queue, which only queue mode loads', async () => {
    expect(await importsOf(['ingest', '--help'])).not.toContain('@kis/queue');
  });

  it('kis emulator --help does', async () => {
    expect(await importsOf(['emulator', '--help'])).toContain('@kis/emulator');
  });
});
