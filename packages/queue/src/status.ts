/**
 * `queueStatus(options)`: the queue's jobs by state, its limits, the workers connected, and per
 * run its documents (stored, failed, pending, sent twice), its jobs by state and its throughput
 * (`kis queue status`). Document counts come from the runs' own state (run-store.ts); jobs
 * active and failed per run from BullMQ's lists, grouped by the run in each job id.
 */
import type { Queue } from 'bullmq';
import { type QueueTarget, queueNames } from './connection.js';
import { runOfJobId } from './job-data.js';
import { type LimitsInForce, readLimits, recentRequestRate } from './limits.js';
import { checkRunId } from './run-id.js';
import type {
  DocumentFailure,
  RunCounters,
  RunSourceDescription,
  RunStore,
  WorkerStop,
} from './run-store.js';
import { withQueue } from './session.js';

export interface RunStatus {
  runId: string;
  /** When it was enqueued (ISO 8601). */
  createdAt: string;
  /** What was enqueued, in order. */
  sources: RunSourceDescription[];
  batchSize: number;
  /** The pair its documents go to, when the producer named one. */
  ccPairId: number | null | undefined;
  /** `enqueuing` while the producer adds jobs; `interrupted` if it stopped before the end. */
  state: RunCounters['state'];
  /** Every document enqueued is stored or failed for good. */
  finished: boolean;
  /**
   * The run in a word, as `kis queue status` shows it in text and JSON: `enqueuing`, `running`,
   * `partial` (enqueueing was interrupted and what was enqueued is not done yet), then `done`
   * (every document stored) or `failed` (finished with documents failed for good).
   */
  phase: RunPhase;
  documents: {
    total: number;
    created: number;
    updated: number;
    stored: number;
    failed: number;
    /** Neither stored nor failed yet. */
    pending: number;
    /** Acknowledgements of documents already stored (documents sent more than once). */
    duplicates: number;
  };
  jobs: {
    total: number;
    completed: number;
    /** Ended with documents that failed (retry them with `retryFailed`). */
    failed: number;
    active: number;
    /** Waiting, delayed, or given back: not started or to run again. */
    waiting: number;
  };
  throughput: {
    /** Documents stored per second over the last minute. */
    recentPerSec: number;
    /** Documents stored per second from the first to the last one stored. */
    overallPerSec: number;
    /**
     * The rate to show: the last minute's while the run goes on; once it is finished, the whole
     * run's (fixed from then on).
     */
    perSec: number;
  };
  /** The first failed documents with their reasons (see `failures` option). */
  failures: DocumentFailure[];
}

export type RunPhase = 'enqueuing' | 'running' | 'partial' | 'done' | 'failed';

export interface QueueStatus {
  queue: string;
  /** The queue's jobs by BullMQ state, all runs together. */
  jobs: Record<'waiting' | 'active' | 'delayed' | 'completed' | 'failed' | 'prioritized', number>;
  /** The limits in force, held per request by every worker. */
  limits: LimitsInForce;
  /** Requests the workers started per second over the last 10 s (retries included). */
  requestsPerSec: number;
  /** Time left of a pause for overload, in ms. */
  rateLimitedForMs: number;
  paused: boolean;
  /** Workers connected to the queue now. */
  workers: number;
  /** Workers that stopped by themselves (a refused key, a long outage), newest first. */
  workerStops: WorkerStop[];
  runs: RunStatus[];
}

export interface QueueStatusOptions extends QueueTarget {
  /** Only this run. */
  runId?: string | undefined;
  /** Failed documents listed per run (default 10; 0 for none). */
  failures?: number | undefined;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Counts job ids of each run in some BullMQ states. */
async function jobsPerRun(queue: Queue, state: 'active' | 'failed'): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const id of await queue.getRanges([state], 0, -1)) {
    const run = runOfJobId(id);
    if (run !== undefined) counts.set(run, (counts.get(run) ?? 0) + 1);
  }
  return counts;
}

function phaseOf(state: RunCounters['state'], finished: boolean, failed: number): RunPhase {
  if (finished) return failed > 0 ? 'failed' : 'done';
  if (state === 'enqueuing') return 'enqueuing';
  return state === 'interrupted' ? 'partial' : 'running';
}

export async function runStatus(
  store: RunStore,
  runId: string,
  perRun: { active: Map<string, number>; failed: Map<string, number> },
  failures: number,
): Promise<RunStatus | undefined> {
  const found = await store.describe(runId);
  if (!found) return undefined;
  const { run, counters: c } = found;
  const stored = c.created + c.updated;
  const pending = Math.max(0, c.documents - stored - c.failed);
  const failedJobs = perRun.failed.get(runId) ?? 0;
  const active = perRun.active.get(runId) ?? 0;
  const span =
    c.firstStoredAt !== undefined && c.lastStoredAt !== undefined
      ? (c.lastStoredAt - c.firstStoredAt) / 1000
      : 0;
  const finished = c.state !== 'enqueuing' && pending === 0;
  const recentPerSec = round(await store.recentRate(runId));
  const overallPerSec = round(span > 0 ? stored / span : 0);
  return {
    runId,
    createdAt: new Date(run.createdAt).toISOString(),
    sources: run.sources,
    batchSize: run.batchSize,
    ccPairId: run.ccPairId,
    state: c.state,
    finished,
    phase: phaseOf(c.state, finished, c.failed),
    documents: {
      total: c.documents,
      created: c.created,
      updated: c.updated,
      stored,
      failed: c.failed,
      pending,
      duplicates: c.duplicates,
    },
    jobs: {
      total: c.jobs,
      completed: c.jobsDone,
      failed: failedJobs,
      active,
      waiting: Math.max(0, c.jobs - c.jobsDone - failedJobs - active),
    },
    throughput: {
      recentPerSec,
      overallPerSec,
      perSec: finished ? overallPerSec : recentPerSec || overallPerSec,
    },
    failures: failures > 0 && c.failed > 0 ? await store.failures(runId, failures) : [],
  };
}

export async function queueStatus(options: QueueStatusOptions): Promise<QueueStatus> {
  const runFilter = options.runId === undefined ? undefined : checkRunId(options.runId);
  const failures = options.failures ?? 10;
  return withQueue(options, async (session) => {
    const { queue, store } = session;
    const [counts, limits, requestsPerSec, ttl, paused, workers, active, failed, workerStops] =
      await Promise.all([
        queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized'),
        readLimits(session),
        recentRequestRate(session),
        queue.getRateLimitTtl(),
        queue.isPaused(),
        queue.getWorkersCount(),
        jobsPerRun(queue, 'active'),
        jobsPerRun(queue, 'failed'),
        store.stops(),
      ]);
    const ids = runFilter === undefined ? await store.runIds() : [runFilter];
    const runs: RunStatus[] = [];
    for (const id of ids) {
      const status = await runStatus(store, id, { active, failed }, failures);
      if (status) runs.push(status);
    }
    return {
      queue: queueNames(options).queue,
      jobs: {
        waiting: counts.waiting ?? 0,
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        completed: counts.completed ?? 0,
        failed: counts.failed ?? 0,
        prioritized: counts.prioritized ?? 0,
      },
      limits,
      requestsPerSec,
      rateLimitedForMs: Math.max(0, ttl),
      paused,
      workers,
      workerStops,
      runs,
    };
  });
}
