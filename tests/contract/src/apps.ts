// Runs an example app (apps/<name>/dist/main.js) as a user runs it: a child process configured by
// environment, its output and exit code collected.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository's apps/ directory. */
export const APPS_DIR = fileURLToPath(new URL('../../../apps/', import.meta.url));

export interface AppResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runApp(
  app: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<AppResult> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [join(APPS_DIR, app, 'dist/main.js'), ...args],
      { env: { ...process.env, ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
