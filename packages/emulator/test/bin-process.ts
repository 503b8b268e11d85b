// Spawns the built `kis-emulator` binary and waits for its ready line (no sleeps: the promise
// resolves on the line, or rejects when the process exits first).
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../bin/kis-emulator.js', import.meta.url));

export interface Running {
  child: ChildProcess;
  ready: {
    base_url: string;
    url: string;
    admin_key: string | null;
    db: string;
    profile: string;
    release: string | null;
    curator_keys: number;
  };
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnBin(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, KIS_EMULATOR_ADMIN_KEY: '', KIS_EMULATOR_USER_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
      if (line !== undefined) {
        resolve({
          child,
          ready: JSON.parse(line),
          stdout: () => out,
          stderr: () => err,
          exited,
        });
      }
    });
    exited.then(({ code, signal }) =>
      reject(new Error(`kis-emulator exited (${code ?? signal}) before ready:\n${out}${err}`)),
    );
  });
}

/** Runs the binary to completion (for --help, usage errors). */
export function runBin(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, KIS_EMULATOR_ADMIN_KEY: '', KIS_EMULATOR_USER_KEY: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Reads lines from a child's stdout until one matches. */
export function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: string) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => pattern.test(l));
      if (line !== undefined) {
        child.stdout!.off('data', onData);
        resolve(line);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', () => reject(new Error(`exited before a line matching ${pattern}`)));
  });
}
