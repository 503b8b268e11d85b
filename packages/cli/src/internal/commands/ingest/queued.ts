/**
 * `kis ingest PATH… --queue URL`: the paths planned as a local run plans them (the same files, ids
 * and order), enqueued as jobs that name the documents (`@kis/queue`'s `enqueue`), for
 * `kis worker` processes to send; prints the run id, or with `--wait` follows the run to its end.
 * The pair's journal is kept as a local run keeps it: files it holds unchanged are not enqueued,
 * and the workers' acknowledgements are written to it (queue-mode/acks.ts).
 */
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { printFailureList } from '../../failure-list.js';
import type { Inputs } from '../../inputs.js';
import type { InterruptSource } from '../../interrupts.js';
import { loadQueue, type QueueModule } from '../../optional-queue.js';
import { journalFor } from '../../pair-journal.js';
import { ackTaker, journalKnows, takeEarlierAcks } from '../../queue-mode/acks.js';
import { enqueueRun } from '../../queue-mode/enqueue.js';
import { waitAndReport } from '../../queue-mode/finish.js';
import type { QueueFlags } from '../../queue-mode/options.js';
import { printEnqueued, printFailure } from '../../queue-mode/report.js';
import { pathSources, producerPaths, stdinDocuments } from '../../queue-mode/sources.js';
import { type QueueTarget, queueCall, queueTarget } from '../../queue-target.js';
import type { RunFlags } from '../../run-options.js';
import { type Journal, openRunJournal } from '../../run-setup.js';
import { sendingPair } from './pair.js';
import { pairsLabel } from './report.js';

/** What `kis ingest --queue` reads. */
export interface QueuedIngestOptions extends RunFlags, QueueFlags {
  ccPair?: number;
  /** `--journal FILE`, or false for `--no-journal`. */
  journal?: string | false;
  /** `--namespace PREFIX`: put before every document id. */
  namespace?: string;
}

export async function runQueuedIngest(
  ctx: Context,
  paths: string[],
  options: QueuedIngestOptions,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const q = await loadQueue('kis ingest --queue');
  const target = queueTarget(ctx, options, { fromEnv: false });
  // a PATH outside --root is refused before anything is said about the pair
  const { inputs, root, source, baseDir } = await producerPaths(ctx.io, paths, options);
  const ccPair = sendingPair(ctx.out, options.ccPair);
  const journal = await producerJournal(ctx, options.journal, ccPair);
  try {
    return await enqueueAndFollow(
      ctx,
      q,
      target,
      { inputs, root, source, baseDir, journal, ccPair },
      options,
      interrupts,
    );
  } finally {
    journal?.journal.close();
  }
}

/**
 * The pair's journal (or `--journal FILE`), as a local run keeps it: under the base URL this
 * machine would use, when one is set (a producer itself never calls the server).
 */
function producerJournal(
  ctx: Context,
  journal: string | false | undefined,
  ccPair: number,
): Promise<{ journal: Journal; path: string } | undefined> {
  const baseUrl = ctx.configuredBaseUrl();
  return openRunJournal(journalFor({ journal, ccPair, baseUrl }), ctx.io.cwd);
}

interface Planned {
  inputs: Inputs;
  root: string;
  source: string | undefined;
  baseDir: string | undefined;
  journal: { journal: Journal; path: string } | undefined;
  ccPair: number;
}

async function enqueueAndFollow(
  ctx: Context,
  q: QueueModule,
  target: QueueTarget,
  planned: Planned,
  options: QueuedIngestOptions,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const { out, io } = ctx;
  const { inputs, root, source, baseDir } = planned;
  const journal = planned.journal?.journal;
  const ccPair = planned.ccPair;
  if (journal) await takeEarlierAcks(out, q, target, ccPair, journal);
  let ignored = 0;
  let skipped = 0;
  const localFailures: string[] = [];
  const sources = pathSources(inputs, {
    root,
    baseDir,
    include: options.include,
    exclude: options.exclude,
    source,
    idPrefix: options.namespace,
    onIgnored: (ref, reason) => {
      ignored++;
      out.result({ ref, status: 'ignored', reason });
    },
    // as a local run: a file the journal holds unchanged for the pair is not sent again
    select: journal
      ? (file) => {
          if (!journalKnows(journal, ccPair, file)) return true;
          skipped++;
          return false;
        }
      : undefined,
  });
  if (inputs.stdin) {
    const documents = stdinDocuments(
      io.stdin,
      { source, idPrefix: options.namespace },
      (ref, reason) => localFailures.push(printFailure(out, { ref, documentId: null, reason })),
    );
    sources.push({ kind: 'documents', documents });
  }
  const result = await enqueueRun(
    ctx,
    q,
    target,
    sources,
    {
      ...options,
      ccPairId: ccPair,
      source,
      idPrefix: options.namespace,
      acknowledgements: journal !== undefined,
    },
    interrupts,
  );
  printEnqueued(out, result, target, { ignored, skipped, localFailed: localFailures.length });
  if (result.interrupted) {
    out.warn(`interrupted: run ${result.runId} holds the ${result.documents} document(s) enqueued`);
    return ExitCode.Interrupted;
  }
  if (!options.wait) {
    // paths that could not become documents failed at once: say which, and why
    if (result.failed > 0) {
      for (const f of await queueCall(() => q.listFailed({ ...target, runId: result.runId }))) {
        localFailures.push(printFailure(out, f));
      }
    }
    printFailureList(out, localFailures);
    return localFailures.length > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
  }
  const acks = ackTaker(q, target, ccPair, journal, result.runId);
  const code = await waitAndReport(ctx, q, target, {
    runId: result.runId,
    label: 'ingesting',
    ignored,
    localFailures,
    pairs: pairsLabel(new Set([ccPair])),
    interrupts,
    onPoll: acks.onPoll,
  });
  await acks.takeNow();
  return code;
}
