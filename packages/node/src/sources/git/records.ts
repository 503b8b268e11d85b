/**
 * Reading NUL-separated records from a git child's output as they come, never the whole output
 * at once: the listing of a tree of 10^6 files stays a chunk in memory.
 */
import type { ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { processFailure } from './run-git.js';

/** The NUL-terminated fields git writes with `-z`, in order; rejects with git's message. */
export async function* nulFields(child: ChildProcess): AsyncGenerator<string> {
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-4000);
  });
  let spawnError: unknown;
  child.once('error', (error) => {
    spawnError = error;
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  child.stdin?.end();
  let rest = '';
  // a chunk may end inside a character of a path: the decoder keeps its first bytes
  const decoder = new StringDecoder('utf8');
  let finished = false;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      const text = rest + decoder.write(chunk);
      const fields = text.split('\0');
      rest = fields.pop() ?? '';
      yield* fields;
    }
    finished = true;
  } catch (error) {
    spawnError ??= error;
  } finally {
    // left early: the rest of the listing is not wanted
    if (!finished && child.exitCode === null) child.kill();
  }
  const code = await exited;
  if (spawnError !== undefined || code !== 0) throw processFailure(spawnError, stderr);
}
