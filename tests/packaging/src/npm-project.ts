import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type RunResult, run } from './run.js';

/** An empty ESM project at `dir`: a package.json and nothing else. */
export async function createProject(dir: string, name: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
}

export interface NpmInstallOptions {
  env: NodeJS.ProcessEnv;
  /** `--ignore-scripts`: no install script runs (what a cautious user of a CLI does). */
  ignoreScripts?: boolean;
  timeoutMs: number;
  /** Forward npm's stderr while it runs (the long native build). */
  streamStderr?: boolean;
}

/**
 * `npm install` of `specs` (tarball paths, `name@version`) in `project`: third-party packages
 * from the registry through the machine's npm cache (`--prefer-offline`).
 */
export function npmInstall(
  project: string,
  specs: readonly string[],
  options: NpmInstallOptions,
): Promise<RunResult> {
  return run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--foreground-scripts=false',
      '--loglevel=warn',
      ...(options.ignoreScripts ? ['--ignore-scripts'] : []),
      ...specs,
    ],
    {
      cwd: project,
      env: options.env,
      timeoutMs: options.timeoutMs,
      streamStderr: options.streamStderr ?? false,
    },
  );
}

/** The count in npm's `added N packages` line, if it printed one. */
export function addedCount(result: RunResult): number | undefined {
  const match = /added (\d+) packages?/.exec(result.stdout);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
