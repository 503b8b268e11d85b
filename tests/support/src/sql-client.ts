/**
 * Running SQL through a database's own command-line client (psql, mariadb) over the server's
 * socket: tests and benchmarks fill their tables without a driver of their own.
 */
import { spawn } from 'node:child_process';

/** Runs `command args`, `input` on its standard input; resolves with its output, rejects with its errors. */
export function runClient(
  command: string,
  args: readonly string[],
  input: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    child.once('error', (error) => reject(new Error(`cannot run ${command}: ${error.message}`)));
    child.once('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${command} exited with ${code}: ${err.trim() || out.trim()}`));
    });
    child.stdin.on('error', () => undefined); // the exit code says what went wrong
    child.stdin.end(input);
  });
}
