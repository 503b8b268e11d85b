import { type ChildProcess, spawn } from 'node:child_process';
import { delimiter, relative, sep } from 'node:path';

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Kill the command (SIGKILL) after this long; default 120 s. */
  timeoutMs?: number;
  /** Forward the command's stderr to ours while it runs (for the long install). */
  streamStderr?: boolean;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function log(message: string): void {
  process.stdout.write(`[packaging] ${message}\n`);
}

/** Run a command to completion, printing what runs, where and how long it took. */
export function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  const { cwd, env, timeoutMs = 120_000, streamStderr = false } = options;
  const shown = [command, ...args]
    .map((a) =>
      a.length > 80
        ? `${JSON.stringify(a.slice(0, 60))}…`
        : a.includes(' ')
          ? JSON.stringify(a)
          : a,
    )
    .join(' ');
  log(`$ ${shown}   (in ${cwd})`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (streamStderr) process.stderr.write(chunk);
    });
    const timer = setTimeout(() => {
      log(`  timed out after ${timeoutMs / 1000} s, killing: ${shown}`);
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start ${command}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      log(`  ${signal ? `killed by ${signal}` : `exit ${code}`} after ${(ms / 1000).toFixed(1)} s`);
      resolve({ code, signal, stdout, stderr, ms });
    });
  });
}

/** The command's output, for assertion messages. */
export function describeResult(result: RunResult): string {
  return `exit ${result.code}${result.signal ? ` (${result.signal})` : ''}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`;
}

/**
 * The environment for commands run in the consumer project: this process's environment without
 * anything that points back into the workspace (pnpm's `npm_*` variables, the workspace's
 * `node_modules/.bin` directories on PATH), so the project sees only what npm installed there.
 * better-sqlite3 builds from source: Node's headers come from `nodedir` when they are installed.
 */
export function consumerEnv(
  workspaceRoot: string,
  nodeHeadersDir: string | undefined,
): NodeJS.ProcessEnv {
  const keep = new Set([
    'npm_config_nodedir',
    'npm_config_cache',
    'npm_config_registry',
    'npm_config_userconfig',
  ]);
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if ((lower.startsWith('npm_') && !keep.has(lower)) || lower.startsWith('pnpm_')) continue;
    if (key === 'NODE_PATH' || key.startsWith('VITEST') || key.startsWith('TURBO_')) continue;
    env[key] = value;
  }
  const inWorkspace = (dir: string) => {
    const rel = relative(workspaceRoot, dir);
    return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
  };
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '' && !inWorkspace(dir))
    .join(delimiter);
  if (nodeHeadersDir !== undefined && env.npm_config_nodedir === undefined) {
    env.npm_config_nodedir = nodeHeadersDir;
  }
  env.NO_COLOR = '1';
  env.NO_UPDATE_NOTIFIER = '1';
  env.npm_config_update_notifier = 'false';
  return env;
}

/** Wait for the first complete stdout line of a child process (its ready line). */
export function firstLine(child: ChildProcess, what: string, deadlineMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const done = (fn: () => void) => {
      clearTimeout(timer);
      child.stdout?.off('data', onOut);
      child.stderr?.off('data', onErr);
      child.off('exit', onExit);
      fn();
    };
    const onOut = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const end = out.indexOf('\n');
      if (end >= 0) done(() => resolve(out.slice(0, end)));
    };
    const onErr = (chunk: Buffer) => {
      err += chunk.toString('utf8');
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      done(() =>
        reject(new Error(`${what} exited (${signal ?? code}) before it was ready:\n${out}${err}`)),
      );
    const timer = setTimeout(
      () =>
        done(() => reject(new Error(`${what} not ready after ${deadlineMs} ms:\n${out}${err}`))),
      deadlineMs,
    );
    child.stdout?.on('data', onOut);
    child.stderr?.on('data', onErr);
    child.on('exit', onExit);
  });
}

/** `node --input-type=module -e <source>` in `cwd`: a user's script in that project. */
export function nodeEval(cwd: string, env: NodeJS.ProcessEnv, source: string): Promise<RunResult> {
  return run(process.execPath, ['--input-type=module', '-e', source], { cwd, env });
}
