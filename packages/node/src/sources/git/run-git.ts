/**
 * Running the system `git` (measured fastest: listing 10^4 files in 46 ms and reading them in 94
 * ms, where isomorphic-git took 0.5 s and 78 s): an argument array (no shell), no prompt for
 * credentials, messages with a URL's credentials taken out.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { GitSourceError } from './errors.js';

/** The environment git runs in: never asks for a password, English messages. */
function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    LC_ALL: 'C',
  };
}

/** `https://user:token@host/x` → `https://user@host/x` (and the same inside any text). */
export function withoutCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)([^/@\s:]*):[^/@\s]*@/gi, '$1$2@');
}

const MISSING_GIT =
  'the git source needs the git program, which is not installed here: install it (e.g. apt-get install git)';

/** `git args…` in `cwd`; resolves with its output, rejects with its message (credentials out). */
export function git(
  args: readonly string[],
  cwd: string,
  redact: (text: string) => string = withoutCredentials,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, env: gitEnv(), maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !stderr) {
          return reject(new GitSourceError(MISSING_GIT));
        }
        const message = (stderr || error.message).replace(/\s*\n\s*/g, ' ').trim();
        reject(
          Object.assign(new GitSourceError(redact(withoutCredentials(message))), {
            exitCode: error.code,
          }),
        );
      },
    );
  });
}

/** `git args…` as a child whose output is streamed (a listing of a large tree, blob contents). */
export function gitProcess(args: readonly string[], cwd: string): ChildProcess {
  const child = spawn('git', args, { cwd, env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  return child;
}

/** The error of a streamed git that failed: its message, or git missing. */
export function processFailure(error: unknown, stderr: string): GitSourceError {
  if ((error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    return new GitSourceError(MISSING_GIT);
  const message =
    stderr.replace(/\s*\n\s*/g, ' ').trim() ||
    String((error as Error | undefined)?.message ?? error);
  return new GitSourceError(withoutCredentials(message));
}
