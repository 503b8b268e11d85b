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
import { createKisClient, KisError } from '@kis/client';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis } from '../connection.js';
import { applyLimits } from '../limits.js';
import { RunStore } from '../run-store.js';
import { AckCapture } from './ack-capture.js';
import { QueueBackoff } from './backoff.js';
import { type EngineStop, WorkerEngine } from './engine.js';
import { JobProcessor, messageOf, type WorkerCounts } from './job-processor.js';
import type { StartWorkerOptions } from './options.js';
import { OverloadWatch } from './overload.js';
import { checkKey, checkWaitingJobs } from './preflight.js';
import { SharedRequestGate } from './request-gate.js';
import { ROOT_FIX } from './root-fit.js';
import { type WorkerSettings, workerSettings } from './settings.js';

export type { StartWorkerOptions, WorkerDocumentEvent } from './options.js';

export interface WorkerProgress extends WorkerCounts {
  /** Requests on the wire now (sent, not yet answered). */
  inFlight: number;
  /** Times this worker paused the queue for overload. */
  overloadPauses: number;
  /** When the engine paused for an outage (ms since epoch), while it is paused. */
  pausedSince: number | undefined;
}

/**
 * Why a worker stopped by itself: the server refused its key (`refused`), an outage outlasted
 * `maxOutageMs` (`outage`), or a job showed that its root does not hold what jobs name (`root`).
 */
export type WorkerStopReason =
  | EngineStop
  | { reason: 'root'; message: string }
  // no `error`: the worker's set-up, not the server, stopped it (read like the engine's stops)
  | { reason: 'connection'; message: string; error?: undefined };

export interface WorkerSummary extends WorkerProgress {
  /** Set when the worker stopped by itself. */
  stopped: WorkerStopReason | undefined;
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

/** The Redis connections and queue handles a worker holds while it runs. */
interface Connections {
  /** Run state, limits and the queue's operations; errors are reported once, here. */
  redis: Redis;
  /** BullMQ's worker connection (blocking reads). */
  workerRedis: Redis;
  queue: Queue;
  store: RunStore;
}

function connect(options: StartWorkerOptions, settings: WorkerSettings): Connections {
  const { name, log } = settings;
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
  const queue = new Queue(settings.queue, { connection: redis, prefix: settings.prefix });
  queue.on('error', () => undefined);
  const store = new RunStore(redis, settings.prefix, settings.queue);
  return { redis, workerRedis, queue, store };
}

/** Starts a worker; resolves once it is connected and taking jobs. */
export async function startWorker(options: StartWorkerOptions): Promise<QueueWorker> {
  const settings = workerSettings(options);
  const { name, log } = settings;
  const kis = createKisClient(options.kis);
  const conn = connect(options, settings);
  const { redis, queue, store } = conn;
  const disconnect = () => {
    redis.disconnect();
    conn.workerRedis.disconnect();
  };
  const gate = new SharedRequestGate(redis, store.keys, {
    owner: `${name}:${Date.now().toString(36)}`,
    leaseMs: settings.leaseMs,
    onError: (error) => log.warn(`the queue's limits could not be read: ${messageOf(error)}`),
  });
  try {
    await applyLimits({ queue, redis, store }, options);
    await checkKey(kis, log);
    await checkWaitingJobs(queue, settings.root);
    await gate.start();
  } catch (error) {
    if (KisError.isInstance(error)) await recordStop(store, name, messageOf(error));
    await queue.close().catch(() => undefined);
    disconnect();
    throw error;
  }

  let worker: Worker | undefined;
  let stopped: WorkerStopReason | undefined;
  const closing = new AbortController();
  const backoff = new QueueBackoff(queue, () => worker);
  const watch = new OverloadWatch((ms, reason) => {
    log.warn(`${reason}: pausing the whole queue for ${Math.round(ms / 100) / 10} s`);
    backoff.pause(ms).catch(() => undefined);
  });
  const acks = new AckCapture();
  const stopWith = (stop: WorkerStopReason) => {
    stopped ??= stop;
    log.error(`worker ${name} stops: ${stop.message}`);
    // said in the queue, so a producer waiting on its run learns why nothing moves
    void recordStop(store, name, stop.message).finally(() => void close());
  };
  const engine = new WorkerEngine(
    kis,
    {
      concurrency: settings.concurrency,
      adaptive: options.adaptive,
      retryForMs: options.retryForMs,
      timeoutMs: options.timeoutMs,
      maxOutageMs: options.maxOutageMs ?? Number.POSITIVE_INFINITY,
      // the queue's rate and ceiling, asked before every request
      requestGate: gate,
      // acknowledgements with their content hash, for runs that feed a producer's journal
      journal: acks,
      onAttempt: (attempt) => watch.observe(attempt.status ?? 0, attempt.retryAfterMs),
    },
    {
      onFatal: stopWith,
      onRestart: (stop) => {
        if (!closing.signal.aborted) log.warn(`${stop.message} Trying again in a few seconds.`);
      },
    },
  );
  const jobs = new JobProcessor({
    store,
    engine,
    backoff,
    acks,
    root: settings.root,
    connections: settings.connections,
    closing: closing.signal,
    onRootMisfit: (reason) => stopWith({ reason: 'root', message: `${reason}: ${ROOT_FIX}` }),
    onConnectionMisfit: (reason) => stopWith({ reason: 'connection', message: reason }),
    onDocument: options.onDocument,
  });

  // declared before the worker runs: a job may stop it (stopWith → close) while it starts
  const progress = (): WorkerProgress => {
    const p = engine.progress();
    return {
      ...jobs.counts,
      inFlight: p?.inFlight ?? 0,
      overloadPauses: watch.tripped,
      pausedSince: p?.pausedSince,
    };
  };

  let closePromise: Promise<WorkerSummary> | undefined;
  let resolveClosed!: (summary: WorkerSummary) => void;
  const closed = new Promise<WorkerSummary>((done) => {
    resolveClosed = done;
  });
  worker = new Worker(settings.queue, jobs.process, {
    connection: conn.workerRedis,
    prefix: settings.prefix,
    concurrency: settings.concurrency,
    lockDuration: settings.lockDuration,
    stalledInterval: settings.stalledInterval,
    maxStalledCount: settings.maxStalledCount,
    name,
    autorun: false,
  });
  worker.on('error', () => undefined); // Redis errors: reported once by the state connection
  worker.on('completed', () => void jobs.counts.jobsCompleted++);
  worker.on('failed', (job, error) => {
    if (job && error.name !== 'WaitingError') jobs.counts.jobsFailed++;
  });
  void worker.run().catch((error: unknown) => {
    log.error(`worker ${name}: ${messageOf(error)}`);
    void close();
  });
  await worker.waitUntilReady();

  function close(): Promise<WorkerSummary> {
    closePromise ??= (async () => {
      closing.abort();
      engine.stop();
      await worker?.close();
      await engine.close();
      await gate.close();
      await queue.close().catch(() => undefined);
      disconnect();
      const summary: WorkerSummary = { ...progress(), stopped: stopped ?? engine.fatal };
      resolveClosed(summary);
      return summary;
    })();
    return closePromise;
  }

  return { name, progress, close, closed };
}

/** Says in the queue that a worker stopped by itself, and why. */
function recordStop(store: RunStore, worker: string, reason: string): Promise<void> {
  return store
    .recordStop({ worker, at: new Date().toISOString(), reason: messageOf(reason) })
    .catch(() => undefined);
}
