/** Run ids: one per enqueue, naming its jobs (`<run>.<seq>`) and its state in Redis. */
import { randomBytes } from 'node:crypto';
import { QueueUsageError } from './errors.js';

const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A new run id: sortable by time, e.g. `r20250102T030405-1a2b3c`. */
export function newRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, '');
  return `r${stamp}-${randomBytes(3).toString('hex')}`;
}

/** Checks a caller's run id (letters, digits, `_` and `-`: it becomes part of Redis keys). */
export function checkRunId(runId: string, field = 'runId'): string {
  if (typeof runId !== 'string' || !RUN_ID.test(runId)) {
    throw new QueueUsageError(
      `${field} must be 1-64 letters, digits, "_" or "-" (got ${JSON.stringify(runId)})`,
    );
  }
  return runId;
}
