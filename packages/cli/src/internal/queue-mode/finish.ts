/**
 * The end of `--wait`: follows the run (wait.ts), lists its failed documents with the server's
 * reasons, prints the summary (report.ts) and gives the exit code of local runs: 0 all stored,
 * 1 some failed, 3 stopped, 130 interrupted (the run goes on in the queue).
 */
import type { RunStatus } from '@kis/queue';
import type { Context } from '../context.js';
import { ExitCode, type ExitCodeValue } from '../errors.js';
import type { InterruptSource } from '../interrupts.js';
import type { QueueModule } from '../optional-queue.js';
import { type QueueTarget, queueCall } from '../queue-target.js';
import { printFailure, printRunSummary, queueFlags } from './report.js';
import { type FollowEnd, followRun } from './wait.js';

/** Failed documents listed at the end (all are in `kis queue failed`). */
const FAILURES_LISTED = 1_000;

export interface WaitOptions {
  runId: string;
  label: string;
  ignored: number;
  /** Failures found here (stdin lines), already printed. */
  localFailures: readonly string[];
  interrupts: InterruptSource;
  onPoll?: ((run: RunStatus) => Promise<void>) | undefined;
}

/**
 * Follows the run to its end and prints its failed documents with the server's reasons (a result
 * line each); the end, and every failure's text for the list at the end of the summary.
 */
export async function awaitRun(
  ctx: Context,
  q: QueueModule,
  target: QueueTarget,
  options: WaitOptions,
): Promise<{ end: FollowEnd; failures: string[] }> {
  const local = {
    processed: options.ignored + options.localFailures.length,
    failed: options.localFailures.length,
  };
  const end = await followRun(ctx, q, target, { ...options, local });
  const failures = [...options.localFailures];
  if ((end.run?.documents.failed ?? 0) > 0) {
    const listed = await queueCall(() =>
      q.listFailed({ ...target, runId: options.runId, limit: FAILURES_LISTED }),
    );
    for (const f of listed) failures.push(printFailure(ctx.out, f));
  }
  return { end, failures };
}

/**
 * The exit code of a run followed to its end: 3 stopped (with why), 130 when Ctrl-C stopped the
 * wait (the run goes on), 1 when documents failed, else 0.
 */
export function exitCodeOf(
  ctx: Context,
  end: FollowEnd,
  failed: number,
  target: QueueTarget,
  runId: string,
): ExitCodeValue {
  const { out } = ctx;
  if (end.how === 'stopped') {
    out.error(end.reason ?? 'the run stopped');
    return ExitCode.Fatal;
  }
  if (end.how === 'interrupted') {
    out.warn(
      `stopped waiting; run ${runId} goes on in the queue: kis queue status ${runId} ${queueFlags(target)}`,
    );
    return ExitCode.Interrupted;
  }
  return failed > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
}

/** `kis ingest --queue --wait`: the run followed, its summary, the exit code. */
export async function waitAndReport(
  ctx: Context,
  q: QueueModule,
  target: QueueTarget,
  options: WaitOptions & {
    pairs: string;
    /** Once the run ended, before its summary (a database's cursor recorded). */
    onEnd?: ((end: FollowEnd) => Promise<void>) | undefined;
  },
): Promise<ExitCodeValue> {
  const { end, failures } = await awaitRun(ctx, q, target, options);
  await options.onEnd?.(end);
  printRunSummary(
    ctx.out,
    {
      run: end.run,
      elapsedMs: end.elapsedMs,
      interrupted: end.how === 'interrupted',
      stopped: end.reason,
      ignored: options.ignored,
      localFailed: options.localFailures.length,
    },
    failures,
    options.pairs,
  );
  const failed = (end.run?.documents.failed ?? 0) + options.localFailures.length;
  return exitCodeOf(ctx, end, failed, target, options.runId);
}
