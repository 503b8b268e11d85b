/**
 * `@kis/queue` is an optional peer of the CLI: it brings BullMQ, ioredis and bull-board, which a
 * user who ingests from one machine does not need. `kis worker`, `kis queue …` and `--queue` load
 * it when they run, and otherwise say in one line how to get it.
 */
import { UsageError } from './errors.js';
import { isMissingPackage } from './missing-package.js';

export type QueueModule = typeof import('@kis/queue');

/** What to do without the queue package, in one line, for the command that needs it. */
export function queueMissing(what: string): string {
  return `${what} needs the optional package @kis/queue: install it beside the CLI (npm i @kis/queue, or npm i -g @kis/queue for a global kis)`;
}

/** The queue package, or a usage error naming `what` needs it and how to get it. */
export async function loadQueue(what: string): Promise<QueueModule> {
  try {
    return await import('@kis/queue');
  } catch (error) {
    if (isMissingPackage(error, '@kis/queue')) throw new UsageError(queueMissing(what));
    throw error;
  }
}
