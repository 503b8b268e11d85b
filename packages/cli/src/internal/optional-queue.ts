/**
 * `@kis/queue` is an optional peer of the CLI: it brings BullMQ, ioredis and bull-board, which a
 * user who ingests from one machine does not need. `kis worker`, `kis queue …` and `--queue` load
 * it when they run, and otherwise say in one line how to get it.
 */
import { UsageError } from './errors.js';

export type QueueModule = typeof import('@kis/queue');

/** What to do without the queue package, in one line, for the command that needs it. */
export function queueMissing(what: string): string {
  return `${what} needs the optional package @kis/queue: install it beside the CLI (npm i @kis/queue, or npm i -g @kis/queue for a global kis)`;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  const message = String((error as Error)?.message ?? '');
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    message.includes('@kis/queue')
  );
}

/** The queue package, or a usage error naming `what` needs it and how to get it. */
export async function loadQueue(what: string): Promise<QueueModule> {
  try {
    return await import('@kis/queue');
  } catch (error) {
    if (isMissing(error)) throw new UsageError(queueMissing(what));
    throw error;
  }
}
