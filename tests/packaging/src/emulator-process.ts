import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { firstLine, log } from './run.js';

/** A `kis-emulator` started from a project's installed bin. */
export interface RunningEmulator {
  /** `http://127.0.0.1:<port>/api` */
  baseUrl: string;
  /** The server's root (`/_emulator/state` lives there). */
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL if still running (clean-up after a failed test). */
  kill(): void;
}

/**
 * Start the `kis-emulator` installed in `project` on a free port of 127.0.0.1, with `adminKey`
 * given through the environment (never on the command line), and wait for its ready line.
 */
export async function startInstalledEmulator(options: {
  project: string;
  env: NodeJS.ProcessEnv;
  dbPath: string;
  adminKey: string;
}): Promise<RunningEmulator> {
  log(`starting the kis-emulator installed in ${options.project} on a free port`);
  const child = spawn(
    process.execPath,
    [
      join(options.project, 'node_modules/.bin/kis-emulator'),
      '--port',
      '0',
      '--db',
      options.dbPath,
      '--json',
    ],
    {
      cwd: options.project,
      env: { ...options.env, KIS_EMULATOR_ADMIN_KEY: options.adminKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  try {
    // a loaded two-core machine may take a while to load SQLite and the schemas
    const ready = JSON.parse(await firstLine(child, 'kis-emulator', 60_000)) as {
      base_url: string;
      url: string;
      admin_key: string | null;
    };
    if (ready.admin_key !== null) throw new Error('kis-emulator printed an admin key it was given');
    log(`  emulator ready at ${ready.base_url}`);
    return {
      baseUrl: ready.base_url,
      url: ready.url,
      output: () => output,
      stop: async () => {
        child.kill('SIGTERM');
        return exited;
      },
      kill,
    };
  } catch (error) {
    kill();
    throw error;
  }
}
