/**
 * What a worker checks before it takes a job (README, "Workers"): that the server takes its key
 * for ingestion, and that its root holds what the jobs waiting now name. A key the server
 * refuses, or the wrong root, would otherwise only show once jobs arrive, each document failing.
 * A server that does not answer yet is no reason to refuse: workers may start before it.
 */
import { type KisClient, KisError, type Logger, runStopping } from '@kis/client';
import type { Queue } from 'bullmq';
import { QueueUsageError } from '../errors.js';
import { type JobData, jobDataProblem } from '../job-data.js';
import type { WorkerRoot } from './job-items.js';
import { ROOT_FIX, rootMisfit } from './root-fit.js';

/** Waiting jobs whose paths are checked against the root at start. */
const JOBS_CHECKED = 10;
const CHECK_TIMEOUT_MS = 15_000;

/**
 * Throws the server's refusal when it will not take the key (or the base URL is not the API):
 * listing credentials has the same gate as ingestion in the rule book (`OPERATION_ACCESS`).
 */
export async function checkKey(kis: KisClient, log: Logger): Promise<void> {
  try {
    await kis.credentials.list({ maxRetries: 0, timeoutMs: CHECK_TIMEOUT_MS });
  } catch (error) {
    if (KisError.isInstance(error) && runStopping(error) !== undefined) throw error;
    const why = error instanceof Error ? error.message : String(error);
    log.warn(`could not check the API key yet (${why}); taking jobs, the server may come later`);
  }
}

/** Refuses a root that holds none of what the oldest waiting jobs name. */
export async function checkWaitingJobs(queue: Queue, root: WorkerRoot): Promise<void> {
  if (root === undefined) return;
  const jobs = await queue.getJobs(['prioritized', 'wait', 'delayed'], 0, JOBS_CHECKED - 1, true);
  for (const job of jobs) {
    if (jobDataProblem(job.data) !== undefined) continue;
    const misfit = rootMisfit(job.data as JobData, root);
    if (misfit !== undefined) throw new QueueUsageError(`${misfit}: ${ROOT_FIX}`);
  }
}
