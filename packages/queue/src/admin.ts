/**
 * Operating runs (`kis queue failed|retry|clean`): list the documents that failed with the
 * server's reasons, retry them (their jobs run again and skip what is stored), and remove
 * finished runs with their jobs and state.
 */
import type { QueueTarget } from './connection.js';
import { QueueUsageError } from './errors.js';
import { jobIdOf, runOfJobId } from './job-data.js';
import { checkRunId } from './run-id.js';
import type { DocumentFailure } from './run-store.js';
import { type QueueSession, withQueue } from './session.js';

export interface RunSelection extends QueueTarget {
  /** One run; default: every run of the queue. */
  runId?: string | undefined;
}

export interface FailedDocument extends DocumentFailure {
  runId: string;
}

async function selectedRuns(session: QueueSession, runId: string | undefined): Promise<string[]> {
  if (runId === undefined) return session.store.runIds();
  checkRunId(runId);
  if (!(await session.store.describe(runId))) {
    throw new QueueUsageError(`run ${runId} is not in queue ${session.queue.name}`);
  }
  return [runId];
}

/** Failed documents with their reasons, run by run, in order (at most `limit`). */
export async function listFailed(
  options: RunSelection & { limit?: number | undefined },
): Promise<FailedDocument[]> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  return withQueue(options, async (session) => {
    const out: FailedDocument[] = [];
    for (const runId of await selectedRuns(session, options.runId)) {
      if (out.length >= limit) break;
      for (const failure of await session.store.failures(runId, limit - out.length)) {
        out.push({ runId, ...failure });
      }
    }
    return out;
  });
}

export interface RetryResult {
  /** Jobs put back in the queue. */
  jobs: number;
  /** Failed documents they hold (each is sent again; stored ones are skipped). */
  documents: number;
}

/** Puts the failed jobs of a run (or of every run) back in the queue. */
export async function retryFailed(options: RunSelection): Promise<RetryResult> {
  return withQueue(options, async (session) => {
    const runs = new Set(await selectedRuns(session, options.runId));
    let jobs = 0;
    let documents = 0;
    for (const id of await session.queue.getRanges(['failed'], 0, -1)) {
      const run = runOfJobId(id);
      if (run === undefined || !runs.has(run)) continue;
      const job = await session.queue.getJob(id);
      if (!job) continue;
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      jobs++;
    }
    for (const run of runs) documents += (await session.store.describe(run))?.counters.failed ?? 0;
    return { jobs, documents };
  });
}

export interface CleanResult {
  /** Runs removed. */
  runs: string[];
  /** Jobs removed from the queue. */
  jobs: number;
  /** Runs left because they are not finished (pass `force` to remove them too). */
  unfinished: string[];
}

/** Jobs removed at once (one round trip each, in parallel). */
const REMOVE_BATCH = 200;

/**
 * Removes runs whose documents are all stored or failed (with `force`, any run; its active jobs
 * cannot be removed while a worker holds them), their jobs and their state.
 */
export async function cleanRun(
  options: RunSelection & { force?: boolean | undefined },
): Promise<CleanResult> {
  return withQueue(options, async (session) => {
    const result: CleanResult = { runs: [], jobs: 0, unfinished: [] };
    for (const runId of await selectedRuns(session, options.runId)) {
      const found = await session.store.describe(runId);
      if (!found) continue;
      const c = found.counters;
      const pending = c.documents - c.created - c.updated - c.failed;
      if (!options.force && (c.state === 'enqueuing' || pending > 0)) {
        result.unfinished.push(runId);
        continue;
      }
      for (let seq = 0; seq < c.jobs; seq += REMOVE_BATCH) {
        const ids = Array.from({ length: Math.min(REMOVE_BATCH, c.jobs - seq) }, (_, i) =>
          jobIdOf(runId, seq + i),
        );
        const removed = await Promise.all(ids.map((id) => session.queue.remove(id)));
        result.jobs += removed.filter((n) => n === 1).length;
      }
      await session.store.deleteRun(runId);
      result.runs.push(runId);
    }
    if (options.runId !== undefined && result.unfinished.length > 0) {
      throw new QueueUsageError(
        `run ${options.runId} is not finished (documents still pending); pass force to remove it anyway`,
      );
    }
    return result;
  });
}
