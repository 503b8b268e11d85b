/**
 * `--wait`: follows a queued run from its state in Redis, with the progress line of local runs,
 * until every document is stored or failed (finished), the run cannot go on (stopped: removed from
 * the queue, or no worker left after one stopped by itself), or Ctrl-C (the run goes on).
 */
import type { RunStatus } from '@kis/queue';
import type { Context } from '../context.js';
import { oneLine } from '../errors.js';
import { type InterruptSource, onInterrupts } from '../interrupts.js';
import type { QueueModule } from '../optional-queue.js';
import { createProgress } from '../progress.js';
import type { QueueTarget } from '../queue-target.js';

export interface FollowOptions {
  runId: string;
  /** The progress line's label: `ingesting`, `syncing`. */
  label: string;
  /** Items counted here and not in the run (files left out, stdin lines that failed). */
  local: { processed: number; failed: number };
  interrupts: InterruptSource;
  /** Called after each look at the run (a sync takes its acknowledgements). */
  onPoll?: ((run: RunStatus) => Promise<void>) | undefined;
  /** How often the run is looked at, in ms (default 500). */
  everyMs?: number | undefined;
}

export interface FollowEnd {
  /** The run when last seen. */
  run: RunStatus | undefined;
  how: 'finished' | 'interrupted' | 'stopped';
  /** Why it stopped. */
  reason?: string | undefined;
  elapsedMs: number;
}

/** How long with no worker before saying how to start one. */
const NO_WORKER_NOTE_MS = 3_000;

export async function followRun(
  ctx: Context,
  q: QueueModule,
  target: QueueTarget,
  options: FollowOptions,
): Promise<FollowEnd> {
  const { out, io } = ctx;
  const started = Date.now();
  const progress = createProgress(io, {
    label: options.label,
    enabled: !out.mode.quiet,
    paint: out.err,
  });
  let interrupted = false;
  let wake: (() => void) | undefined;
  const interruption = onInterrupts(options.interrupts, {
    first: () => {
      interrupted = true;
      wake?.();
    },
    again: () => wake?.(),
  });
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  let run: RunStatus | undefined;
  let redisDown = false;
  let saidNoWorker = false;
  let noWorkerSince: number | undefined;
  try {
    for (;;) {
      if (interrupted) return { run, how: 'interrupted', elapsedMs: Date.now() - started };
      let status: Awaited<ReturnType<QueueModule['queueStatus']>>;
      try {
        status = await q.queueStatus({ ...target, runId: options.runId, failures: 0 });
        if (redisDown) progress.log('Redis is back');
        redisDown = false;
      } catch (error) {
        if (!redisDown) progress.log(`${oneLine(error)}; waiting for it (Ctrl-C to stop waiting)`);
        redisDown = true;
        await pause(options.everyMs ?? 500);
        continue;
      }
      run = status.runs[0];
      if (run === undefined) {
        return {
          run,
          how: 'stopped',
          reason: `run ${options.runId} is no longer in the queue (removed with kis queue clean --force?)`,
          elapsedMs: Date.now() - started,
        };
      }
      const d = run.documents;
      if (run.state !== 'enqueuing') progress.setTotal(d.total + options.local.processed);
      progress.update({
        processed: d.stored + d.failed + options.local.processed,
        failed: d.failed + options.local.failed,
        skipped: 0,
        ratePerSec: run.throughput.perSec,
        // jobs running across all workers: each has one request on the wire at most
        concurrency: run.jobs.active,
      });
      await options.onPoll?.(run);
      if (run.finished) return { run, how: 'finished', elapsedMs: Date.now() - started };
      if (status.workers === 0) {
        const stop = status.workerStops[0];
        if (stop !== undefined && Date.parse(stop.at) >= Date.parse(run.createdAt)) {
          return {
            run,
            how: 'stopped',
            reason: `no worker is taking the run's jobs: worker ${stop.worker} stopped: ${stop.reason}`,
            elapsedMs: Date.now() - started,
          };
        }
        noWorkerSince ??= Date.now();
        if (!saidNoWorker && Date.now() - noWorkerSince >= NO_WORKER_NOTE_MS) {
          progress.log(
            'no worker is connected to the queue yet: start one with kis worker --queue …',
          );
          saidNoWorker = true;
        }
      } else noWorkerSince = undefined;
      await pause(options.everyMs ?? 500);
    }
  } finally {
    interruption.off();
    progress.stop();
  }
}
