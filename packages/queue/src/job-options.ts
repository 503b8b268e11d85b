/** BullMQ options of every job this package adds. */
import type { JobsOptions } from 'bullmq';

/** Attempts of a job that fails as a whole (a worker error, not a document's own failure). */
export const DEFAULT_JOB_ATTEMPTS = 5;

/** Completed jobs kept for the dashboard; the run's own state (run-store.ts) counts them all. */
const KEEP_COMPLETED = 1_000;

export function jobOptions(attempts: number): JobsOptions {
  return {
    attempts,
    backoff: { type: 'exponential', delay: 5_000 },
    // a finished run's counts live in the run state: completed jobs need not stay in Redis
    removeOnComplete: { count: KEEP_COMPLETED },
    // failed jobs stay: they are what `retryFailed` retries
    removeOnFail: false,
  };
}
