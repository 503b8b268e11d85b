/** Runs test/fixtures/worker-process.mjs as a child process (a worker that can be killed). */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./fixtures/worker-process.mjs', import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything it printed. */
  output(): string;
  /** Resolves with its exit code. */
  exited: Promise<number | null>;
}

export async function spawnWorker(
  options: Record<string, unknown>,
  apiKey: string,
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [SCRIPT, JSON.stringify(options)], {
    env: { ...process.env, KIS_API_KEY: apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (out.includes('ready\n')) {
        child.stdout?.off('data', check);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) =>
      reject(new Error(`worker exited (${code}) before it was ready: ${out}`)),
    );
  });
  return { child, output: () => out, exited };
}
