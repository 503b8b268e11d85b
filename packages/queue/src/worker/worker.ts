/**
 * `startWorker(options)`: takes jobs from the queue and sends their documents through one
 * long-lived bulk engine (README, "Workers"). Each active job has at most one document in the
 * engine, so the queue's global job concurrency is the ceiling of requests in flight; a job skips
 * the documents its run already holds as stored, records each result before sending its next
 * document, and ends `completed` (all stored) or `failed` (some failed for good, listed with the
 * server's reasons). `close()` lets requests on the wire finish, records them, and puts the jobs
 * back in the queue for another worker; a worker that dies leaves its jobs locked until BullMQ's
 * stalled-job check moves them back.
 */
import type { IngestResult, KisClientOptions, Logger } from '@kis/client';
import { createKisClient, runStopping } from '@kis/client';
import { type Job, Queue, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import { checkConnection, createRedis, type QueueTarget, queueNames } from '../connection.js';
import { QueueUsageError } from '../errors.js';
import { type JobData, jobDataProblem } from '../job-data.js';
import { applyLimits, checkLimits, type QueueLimits } from '../limits.js';
import { checkRoot } from '../plan/files.js';
import { type DocumentFailure, RunStore } from '../run-store.js';
import { AckCapture } from './ack-capture.js';
import { QueueBackoff } from './backoff.js';
import { type EngineStop, WorkerEngine } from './engine.js';
import { jobItems } from './job-items.js';
import { OverloadWatch } from './overload.js';

export interface StartWorkerOptions extends QueueTarget, QueueLimits {
  /**
   * How to reach the server: `baseUrl`, `apiKey` (from the worker's own environment: keys never
   * travel in jobs or Redis), time-outs, logging.
   */
  kis: KisClientOptions;
  /** The folder the producer's file paths (and relative JSONL files) are relative to. */
  root?: string | undefined;
  /** Jobs this worker runs at once = most requests it has in flight. Default 8. */
  concurrency?: number | undefined;
  /** Adapt the worker's in-flight requests to the server (default true), up to `concurrency`. */
  adaptive?: boolean | undefined;
  /** How long a document may be retried, in ms, outage pauses aside (default 600 000). */
  retryForMs?: number | undefined;
  /** Per-attempt time-out in ms (default: the client's). */
  timeoutMs?: number | undefined;
  /** Longest outage to wait through before the worker stops, in ms (default: no limit). */
  maxOutageMs?: number | undefined;
  /** A job's lock, renewed while it runs; a dead worker's jobs are free after it (default 30 000). */
  lockDurationMs?: number | undefined;
  /** How often workers look for jobs whose lock expired (default 30 000). */
  stalledIntervalMs?: number | undefined;
  /** Times a job may be taken back from dead workers before it fails (default 5). */
  maxStalledCount?: number | undefined;
  /** The worker's name, shown in the dashboard (default `kis-worker-<pid>`). */
  name?: string | undefined;
  /** Where warnings go (default: the client's logger, else `console`). */
  logger?: Logger | undefined;
  /** Called with every document's result. */
  onDocument?: ((event: WorkerDocumentEvent) => void) | undefined;
}

export interface WorkerDocumentEvent {
  runId: string;
  jobId: string;
  ordinal: number;
  ref: string | undefined;
  documentId: string | null;
  status: 'created' | 'updated' | 'failed';
  attempts: number;
  /** Why it failed. */
  reason?: string | undefined;
}

export interface WorkerProgress {
  /** Jobs running now. */
  activeJobs: number;
  jobsCompleted: number;
  /** Jobs ended `failed` (some documents failed for good). */
  jobsFailed: number;
  /** Jobs put back in the queue by `close()`. */
  jobsReturned: number;
  created: number;
  updated: number;
  failed: number;
  /** Documents skipped because their run already held them as stored. */
  skipped: number;
  /** Requests on the wire now. */
  inFlight: number;
  /** Times this worker paused the queue for overload. */
  overloadPauses: number;
  /** When the engine paused for an outage (ms since epoch), while it is paused. */
  pausedSince: number | undefined;
}

export interface WorkerSummary extends WorkerProgress {
  /** Set when the worker stopped by itself: the server refused the key, or an outage lasted. */
  stopped: EngineStop | undefined;
}

export interface QueueWorker {
  /** The worker's name. */
  readonly name: string;
  /** Counts so far. */
  progress(): WorkerProgress;
  /** Finishes requests on the wire, returns the jobs to the queue, closes; idempotent. */
  close(): Promise<WorkerSummary>;
  /** Resolves when the worker has closed (by `close()` or by stopping by itself). */
  readonly closed: Promise<WorkerSummary>;
}

function positive(value: number | undefined, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new QueueUsageError(`${field} must be above 0 (got ${JSON.stringify(value)})`);
  }
  return value;
}

function wholePositive(value: number | undefined, field: string, fallback: number): number {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
    throw new QueueUsageError(
      `${field} must be a whole number of at least 1 (got ${JSON.stringify(value)})`,
    );
  }
  return value ?? fallback;
}

/** One line from any error, for records and logs. */
const messageOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ').trim();

/** Starts a worker; resolves once it is connected and taking jobs. */
export async function startWorker(options: StartWorkerOptions): Promise<QueueWorker> {
  const { queue: queueName, prefix } = queueNames(options);
  checkConnection(options.connection);
  checkLimits(options);
  if (options.kis === null || typeof options.kis !== 'object') {
    throw new QueueUsageError('kis must give the server: { baseUrl, apiKey }');
  }
  const root = options.root === undefined ? undefined : checkRoot(options.root);
  const concurrency = wholePositive(options.concurrency, 'concurrency', 8);
  const lockDuration = positive(options.lockDurationMs, 'lockDurationMs', 30_000);
  const stalledInterval = positive(options.stalledIntervalMs, 'stalledIntervalMs', 30_000);
  const maxStalledCount = wholePositive(options.maxStalledCount, 'maxStalledCount', 5);
  const name = options.name ?? `kis-worker-${process.pid}`;
  const log: Logger = options.logger ?? options.kis.logger ?? console;

  const redis = createRedis(options.connection, `${name}:state`);
  const workerRedis = createRedis(options.connection, name);
  let redisDown = false;
  redis.on('error', (error: Error) => {
    if (!redisDown) log.warn(`Redis is not answering (${messageOf(error)}); waiting for it`);
    redisDown = true;
  });
  redis.on('ready', () => {
    if (redisDown) log.info('Redis is back');
    redisDown = false;
  });
  workerRedis.on('error', () => undefined); // reported once, above
  const queue = new Queue(queueName, { connection: redis, prefix });
  queue.on('error', () => undefined);
  const store = new RunStore(redis, prefix, queueName);
  await applyLimits(queue, options);

  let worker: Worker | undefined;
  const backoff = new QueueBackoff(queue, () => worker);
  const watch = new OverloadWatch((ms, reason) => {
    log.warn(`${reason}: pausing the whole queue for ${Math.round(ms / 100) / 10} s`);
    backoff.pause(ms).catch(() => undefined);
  });
  const kis = createKisClient(options.kis);
  const acks = new AckCapture();

  const closing = new AbortController();
  const counts = {
    activeJobs: 0,
    jobsCompleted: 0,
    jobsFailed: 0,
    jobsReturned: 0,
    created: 0,
    updated: 0,
    failed: 0,
    skipped: 0,
  };
  let closePromise: Promise<WorkerSummary> | undefined;
  let resolveClosed!: (summary: WorkerSummary) => void;
  const closed = new Promise<WorkerSummary>((done) => {
    resolveClosed = done;
  });

  const engine = new WorkerEngine(
    kis,
    {
      concurrency,
      adaptive: options.adaptive,
      retryForMs: options.retryForMs,
      timeoutMs: options.timeoutMs,
      maxOutageMs: options.maxOutageMs ?? Number.POSITIVE_INFINITY,
      // each active job has one request on the wire: the queue's ceiling holds (limits.ts)
      hedge: false,
      // acknowledgements with their content hash, for runs that feed a sync's journal
      journal: acks,
      onAttempt: (attempt) => watch.observe(attempt.status ?? 0, attempt.retryAfterMs),
    },
    {
      onFatal: (stop) => {
        log.error(`worker ${name} stops: ${stop.message}`);
        // said in the queue, so a producer waiting on its run learns why nothing moves
        void store
          .recordStop({
            worker: name,
            at: new Date().toISOString(),
            reason: messageOf(stop.message),
          })
          .catch(() => undefined)
          .finally(() => void close());
      },
      onRestart: (stop) => {
        if (!closing.signal.aborted) log.warn(`${stop.message} Trying again in a few seconds.`);
      },
    },
  );

  /** Puts a job back in the queue for another worker (its stored documents stay recorded). */
  async function giveBack(job: Job, token: string | undefined): Promise<never> {
    await job.moveToWait(token);
    counts.jobsReturned++;
    throw new WaitingError();
  }

  async function recordResult(
    job: Job,
    data: JobData,
    ordinal: number,
    result: IngestResult,
  ): Promise<'stored' | 'failed'> {
    const jobId = job.id ?? '';
    const entry = acks.take(result.documentId);
    if (result.status === 'created' || result.status === 'updated') {
      const ack =
        data.acks && entry && result.documentId !== null
          ? {
              documentId: result.documentId,
              entry: {
                hash: entry.hash,
                status: entry.status,
                ccPairId: entry.ccPairId,
                at: entry.at,
                ...(entry.fingerprint === undefined ? {} : { fingerprint: entry.fingerprint }),
              },
            }
          : undefined;
      await store.record(data.run, ordinal, { status: result.status, ack });
      counts[result.status]++;
    } else {
      const failure: DocumentFailure = {
        ordinal,
        ref: result.ref,
        documentId: result.documentId,
        reason: result.error ? messageOf(result.error) : `not stored (${result.status})`,
        httpStatus: result.error?.status,
        attempts: result.attempts,
        at: new Date().toISOString(),
        jobId,
      };
      await store.record(data.run, ordinal, { status: 'failed', failure });
      counts.failed++;
    }
    const stored = result.status === 'created' || result.status === 'updated';
    options.onDocument?.({
      runId: data.run,
      jobId,
      ordinal,
      ref: result.ref,
      documentId: result.documentId,
      status: stored ? (result.status as 'created' | 'updated') : 'failed',
      attempts: result.attempts,
      ...(stored ? {} : { reason: result.error ? messageOf(result.error) : result.status }),
    });
    return stored ? 'stored' : 'failed';
  }

  async function processJob(job: Job, token?: string): Promise<unknown> {
    const problem = jobDataProblem(job.data);
    if (problem !== undefined) throw new UnrecoverableError(problem);
    const data = job.data as JobData;
    const stored = await store.storedAmong(data.run, data.start, data.count);
    const done = { created: 0, updated: 0, skipped: 0 };
    const failures: { ref: string; reason: string }[] = [];
    let first = true;
    for await (const { ordinal, item } of jobItems(data, root)) {
      if (stored[ordinal - data.start]) {
        done.skipped++;
        counts.skipped++;
        continue;
      }
      let result: IngestResult;
      for (;;) {
        if (closing.signal.aborted) return giveBack(job, token);
        // the job's first document passed the queue's limiter when the job started
        if (!first) await backoff.wait(closing.signal);
        if (closing.signal.aborted) return giveBack(job, token);
        result = await engine.send(item);
        // refused for this worker's key or base URL, not for the document: another worker may
        // store it (this one stops)
        if (result.status === 'failed' && result.error && runStopping(result.error)) {
          return giveBack(job, token);
        }
        if (result.status !== 'aborted') break;
        if (closing.signal.aborted || engine.fatal) return giveBack(job, token);
        // the engine run was replaced (no server yet): send it again through the new one
      }
      first = false;
      const outcome = await recordResult(job, data, ordinal, result);
      if (outcome === 'stored') done[result.status as 'created' | 'updated']++;
      else failures.push({ ref: item.ref, reason: result.error?.message ?? result.status });
    }
    if (failures.length > 0) {
      const head = failures[0] as { ref: string; reason: string };
      throw new UnrecoverableError(
        `${failures.length} of ${data.count} documents failed (first: ${head.ref}: ${messageOf(head.reason)})`,
      );
    }
    await store.jobDone(data.run, data.seq);
    return done;
  }

  worker = new Worker(
    queueName,
    async (job, token) => {
      counts.activeJobs++;
      try {
        return await processJob(job, token);
      } finally {
        counts.activeJobs--;
      }
    },
    {
      connection: workerRedis,
      prefix,
      concurrency,
      lockDuration,
      stalledInterval,
      maxStalledCount,
      name,
      autorun: false,
    },
  );
  worker.on('error', () => undefined); // Redis errors: reported once by the state connection
  worker.on('completed', () => void counts.jobsCompleted++);
  worker.on('failed', (job, error) => {
    if (job && error.name !== 'WaitingError') counts.jobsFailed++;
  });
  void worker.run().catch((error: unknown) => {
    log.error(`worker ${name}: ${messageOf(error)}`);
    void close();
  });
  await worker.waitUntilReady();

  const progress = (): WorkerProgress => {
    const p = engine.progress();
    return {
      ...counts,
      inFlight: p?.inFlight ?? 0,
      overloadPauses: watch.tripped,
      pausedSince: p?.pausedSince,
    };
  };

  function close(): Promise<WorkerSummary> {
    closePromise ??= (async () => {
      closing.abort();
      engine.stop();
      await worker?.close();
      await engine.close();
      await queue.close().catch(() => undefined);
      redis.disconnect();
      workerRedis.disconnect();
      const summary: WorkerSummary = { ...progress(), stopped: engine.fatal };
      resolveClosed(summary);
      return summary;
    })();
    return closePromise;
  }

  return { name, progress, close, closed };
}
