/**
 * `kis sync postgres://…|git+file://…|--from FILE NAME --queue URL`: the plan of a local sync of
 * the database or repository (the pair's listing, the journal, what the source owns), then the
 * rows or files of its run enqueued for `kis worker` processes and the deletions done here, as
 * for files (queued.ts). Jobs carry key ranges or blob ids, not fingerprints: the rows or files
 * a run reads that the plan found unchanged (the rows at the cursor) are sent again, as upserts.
 */
import { sync } from '@kis/node';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { printFailureList } from '../../failure-list.js';
import { closeSource, finishSource, sourceCall } from '../../incremental-source.js';
import type { InterruptSource } from '../../interrupts.js';
import { loadQueue } from '../../optional-queue.js';
import { ackTaker, takeEarlierAcks } from '../../queue-mode/acks.js';
import { enqueueRun } from '../../queue-mode/enqueue.js';
import { awaitRun, exitCodeOf } from '../../queue-mode/finish.js';
import { finishQueued, noteCursorStays, queueSourceOf } from '../../queue-mode/incremental.js';
import { printEnqueued } from '../../queue-mode/report.js';
import { queueTarget } from '../../queue-target.js';
import { parseMaxDelete, planOptions, type SyncFlags } from './options.js';
import { printPlanEnd } from './plan-report.js';
import { deleteGone, printSyncSummary } from './queued.js';
import { type SyncTarget, setUpSourceSync } from './source.js';

export async function runQueuedSourceSync(
  ctx: Context,
  syncTarget: SyncTarget,
  flags: SyncFlags,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const { out, io } = ctx;
  const q = await loadQueue('kis sync --queue');
  const target = queueTarget(ctx, flags, { fromEnv: false });
  const maxDelete = parseMaxDelete(flags.maxDelete);
  let ignored = 0;
  const setup = await setUpSourceSync(ctx, syncTarget, flags, {
    onIgnored: (ref, reason) => {
      ignored++;
      out.result({ ref, status: 'ignored', reason });
    },
    onWarning: (ref, message) => out.warn(`${ref}: ${message}`),
  });
  const { options, opened, naming, baseUrl } = setup;
  const journal = setup.journal?.journal;
  try {
    if (journal && !options.dryRun) {
      await takeEarlierAcks(out, q, target, options.ccPair, journal);
    }
    const started = Date.now();
    const session = await sourceCall(naming, () =>
      sync(
        setup.client,
        opened.source,
        planOptions(options, opened.source.owns, maxDelete, journal),
      ),
    );
    const { plan } = session;
    const planEnd = printPlanEnd(out, plan, options, 'dry run: nothing was enqueued or deleted');
    if (planEnd !== undefined) return planEnd;
    const carry = { options, plan, session, baseUrl };
    const summaryOf = (runId: string | undefined, enqueued: number) => ({
      runId,
      enqueued,
      plan,
      localFailed: 0,
      elapsedMs: Date.now() - started,
    });
    if (plan.create.length + plan.update.length + plan.unknown.length === 0) {
      out.info('nothing to send');
      const deletions = await deleteGone(ctx, carry);
      // nothing left to store: the cursor or commit moves on as after a local run
      await finishSource(opened, { failed: 0, aborted: 0 }, naming);
      printSyncSummary(out, { ...summaryOf(undefined, 0), stored: undefined, deletions });
      return deletions.failed > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
    }
    const queued = await queueSourceOf(out, opened, options, io.cwd);
    const result = await sourceCall(naming, () =>
      enqueueRun(
        ctx,
        q,
        target,
        [queued],
        { ...options, ccPairId: options.ccPair, acknowledgements: true },
        interrupts,
      ),
    );
    printEnqueued(out, result, target, { ignored, localFailed: 0 });
    if (result.interrupted) {
      out.warn(
        `interrupted: run ${result.runId} holds the ${result.documents} document(s) enqueued; nothing was deleted`,
      );
      return ExitCode.Interrupted;
    }
    if (!options.wait) {
      const deletions = await deleteGone(ctx, carry);
      noteCursorStays(out, opened);
      printSyncSummary(out, {
        ...summaryOf(result.runId, result.documents),
        stored: undefined,
        deletions,
      });
      return deletions.failed > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
    }
    const acks = ackTaker(q, target, options.ccPair, journal, result.runId);
    const { end, failures } = await awaitRun(ctx, q, target, {
      runId: result.runId,
      label: 'syncing',
      ignored,
      localFailures: [],
      interrupts,
      onPoll: acks.onPoll,
    });
    // the acknowledgements first: the cursor never says more than the journal holds
    await acks.takeNow();
    await finishQueued(opened, end, naming);
    // as a local sync: nothing deleted after a run that stopped or was left
    const deletions =
      end.how === 'finished' ? await deleteGone(ctx, carry) : { deleted: 0, failed: 0 };
    printSyncSummary(out, {
      ...summaryOf(result.runId, result.documents),
      stored: end.run,
      deletions,
    });
    printFailureList(out, failures);
    const failed = (end.run?.documents.failed ?? 0) + deletions.failed;
    return exitCodeOf(ctx, end, failed, target, result.runId);
  } finally {
    closeSource(opened);
    journal?.close();
  }
}
