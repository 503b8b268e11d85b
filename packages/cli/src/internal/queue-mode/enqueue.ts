/**
 * Enqueueing a run for `kis ingest --queue` and `kis sync --queue`: the queue's limits set first
 * (which also proves Redis answers), then `@kis/queue`'s `enqueue` with a progress line; Ctrl-C
 * stops enqueueing (the jobs added stay, and the run says it was interrupted).
 */
import type { EnqueueResult } from '@kis/queue';
import type { Context } from '../context.js';
import { type InterruptSource, onInterrupts } from '../interrupts.js';
import type { QueueModule } from '../optional-queue.js';
import { createProgress } from '../progress.js';
import { type QueueTarget, queueCall } from '../queue-target.js';
import type { QueueFlags } from './options.js';

/** The queue's limits from `--rate` and `--max-in-flight` (`none` removes one). */
export function queueLimits(options: QueueFlags): {
  rate?: string | null;
  maxInFlight?: number | null;
} {
  return {
    ...(options.rate === undefined ? {} : { rate: options.rate === 'none' ? null : options.rate }),
    ...(options.maxInFlight === undefined
      ? {}
      : { maxInFlight: options.maxInFlight === 'none' ? null : options.maxInFlight }),
  };
}

/**
 * Sets the queue's limits (also proving Redis answers) and enqueues `sources` as one run, with a
 * progress line; Ctrl-C stops enqueueing (the jobs added stay, the run says it was interrupted).
 */
/** What a run is enqueued with, besides its sources. */
export interface RunPlan
  extends Pick<QueueFlags, 'batchSize' | 'maxWaiting' | 'rate' | 'maxInFlight'> {
  ccPairId?: number | undefined;
  source?: string | undefined;
  idPrefix?: string | undefined;
  acknowledgements?: boolean | undefined;
}

/**
 * Sets the queue's limits (also proving Redis answers) and enqueues `sources` as one run, with a
 * progress line; Ctrl-C stops enqueueing (the jobs added stay, the run says it was interrupted).
 */
export async function enqueueRun(
  ctx: Context,
  q: QueueModule,
  target: QueueTarget,
  sources: Parameters<QueueModule['enqueue']>[0],
  plan: RunPlan,
  interrupts: InterruptSource,
): Promise<EnqueueResult> {
  const { out, io } = ctx;
  await queueCall(() => q.setQueueLimits({ ...target, ...queueLimits(plan) }));
  const progress = createProgress(io, {
    label: 'enqueuing',
    enabled: !out.mode.quiet,
    paint: out.err,
  });
  const abort = new AbortController();
  const interruption = onInterrupts(interrupts, {
    first: () => {
      progress.log('interrupted: the jobs enqueued so far stay in the queue');
      abort.abort();
    },
    again: () => abort.abort(),
  });
  try {
    return await queueCall(() =>
      q.enqueue(sources, {
        ...target,
        ccPairId: plan.ccPairId,
        source: plan.source,
        idPrefix: plan.idPrefix,
        acknowledgements: plan.acknowledgements,
        batchSize: plan.batchSize,
        maxWaitingJobs: plan.maxWaiting,
        signal: abort.signal,
        onProgress: (p) => progress.update({ processed: p.documents, failed: 0, skipped: 0 }),
      }),
    );
  } finally {
    interruption.off();
    progress.stop();
  }
}
