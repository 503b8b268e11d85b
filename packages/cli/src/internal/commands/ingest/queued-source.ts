/**
 * `kis ingest postgres://…|git+file://… --queue URL`: the database's or repository's run planned
 * here (the rows or files it reads, as a local run would: every one, or what changed since the
 * cursor or commit in the pair's journal), enqueued as jobs naming key ranges (read by workers
 * through the connection they hold by name) or a commit's files under `--root`; with `--wait`,
 * followed to its end, when the cursor or commit moves on.
 */
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import {
  checkSource,
  closeSource,
  type OpenOptions,
  openSource,
  sourceCall,
} from '../../incremental-source.js';
import type { InterruptSource } from '../../interrupts.js';
import { loadQueue } from '../../optional-queue.js';
import { journalFor } from '../../pair-journal.js';
import { ackTaker, takeEarlierAcks } from '../../queue-mode/acks.js';
import { enqueueRun } from '../../queue-mode/enqueue.js';
import { waitAndReport } from '../../queue-mode/finish.js';
import { finishQueued, noteCursorStays, queueSourceOf } from '../../queue-mode/incremental.js';
import { printEnqueued } from '../../queue-mode/report.js';
import { queueTarget } from '../../queue-target.js';
import { openRunJournal } from '../../run-setup.js';
import type { SourceSpec } from '../../source-location.js';
import type { SourceFlags } from '../../source-options.js';
import { sendingPair } from './pair.js';
import type { QueuedIngestOptions } from './queued.js';
import { pairsLabel } from './report.js';

export async function runQueuedSourceIngest(
  ctx: Context,
  spec: SourceSpec,
  options: QueuedIngestOptions & SourceFlags,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const { out, io } = ctx;
  const q = await loadQueue('kis ingest --queue');
  const target = queueTarget(ctx, options, { fromEnv: false });
  const ccPair = sendingPair(out, options.ccPair);
  // the pair's journal, as a local run keeps it (a producer itself never calls the server)
  const journal = await openRunJournal(
    journalFor({ journal: options.journal, ccPair, baseUrl: ctx.configuredBaseUrl() }),
    io.cwd,
  );
  let ignored = 0;
  const hooks: Pick<OpenOptions, 'onIgnored' | 'onWarning'> = {
    onIgnored: (ref, reason) => {
      ignored++;
      out.result({ ref, status: 'ignored', reason });
    },
    onWarning: (ref, message) => out.warn(`${ref}: ${message}`),
  };
  let opened: ReturnType<typeof openSource> | undefined;
  try {
    if (journal) await takeEarlierAcks(out, q, target, ccPair, journal.journal);
    opened = openSource(spec, {
      state: journal?.journal,
      full: options.full === true,
      namespace: options.namespace,
      source: options.source,
      include: options.include,
      exclude: options.exclude,
      ...hooks,
    });
    const source = opened;
    out.info(`checked ${await checkSource(source, 'flags')}`);
    const queued = await queueSourceOf(out, source, options, io.cwd);
    const result = await sourceCall('flags', () =>
      enqueueRun(
        ctx,
        q,
        target,
        [queued],
        { ...options, ccPairId: ccPair, acknowledgements: journal !== undefined },
        interrupts,
      ),
    );
    printEnqueued(out, result, target, { ignored, localFailed: 0 });
    if (result.interrupted) {
      out.warn(
        `interrupted: run ${result.runId} holds the ${result.documents} document(s) enqueued`,
      );
      return ExitCode.Interrupted;
    }
    if (!options.wait) {
      noteCursorStays(out, source);
      return result.failed > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
    }
    const acks = ackTaker(q, target, ccPair, journal?.journal, result.runId);
    return await waitAndReport(ctx, q, target, {
      runId: result.runId,
      label: 'ingesting',
      ignored,
      localFailures: [],
      pairs: pairsLabel(new Set([ccPair])),
      interrupts,
      onPoll: acks.onPoll,
      onEnd: async (end) => {
        // the acknowledgements first: the cursor never says more than the journal holds
        await acks.takeNow();
        await finishQueued(source, end, 'flags');
      },
    });
  } finally {
    if (opened) closeSource(opened);
    journal?.journal.close();
  }
}
