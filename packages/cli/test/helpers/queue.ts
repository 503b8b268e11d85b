/**
 * Queue mode's end-to-end set-up: `kis worker` processes (ready once they print their first JSON
 * line), stopped with SIGTERM or killed with SIGKILL, and polling until a condition holds (`until`,
 * shared with the queue package's tests through @kis/test-support).
 */
import type { ChildProcess } from 'node:child_process';
import { type KisResult, type KisRunOptions, spawnKis } from './cli.js';

export { until } from '@kis/test-support';

export interface KisWorker {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): { stdout: string; stderr: string };
  /** SIGTERM, then its exit: code and output. */
  stop(): Promise<KisResult>;
  /** SIGKILL (nothing runs after it). */
  kill(): Promise<void>;
  /** Its exit, however it comes. */
  exited: Promise<KisResult>;
}

/** Starts `kis --json worker ARGS…` and resolves once it takes jobs. */
export async function startKisWorker(
  args: readonly string[],
  options: KisRunOptions,
): Promise<KisWorker> {
  const child = spawnKis(['--json', 'worker', ...args], options);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const exited = new Promise<KisResult>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  await new Promise<void>((resolve, reject) => {
    const ready = () => {
      if (stdout.includes('{"worker":')) {
        child.stdout?.off('data', ready);
        resolve();
      }
    };
    child.stdout?.on('data', ready);
    void exited.then((r) =>
      reject(new Error(`kis worker exited (${r.code}) before it was ready: ${r.stderr}`)),
    );
  });
  return {
    child,
    output: () => ({ stdout, stderr }),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    exited,
  };
}
