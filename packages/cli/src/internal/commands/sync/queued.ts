/**
 * `kis sync PATH… --cc-pair ID --queue URL`: the plan of a local sync (the pair's listing, the
 * journal's fingerprints and content hashes, ownership), then the creates and updates enqueued as
 * jobs for `kis worker` processes, and the deletions done here.
 *
 * Deletions stay with the producer: they need no file and no extraction, only ids this process
 * alone knows (the plan), and the plan's `--max-delete` guard was checked here; as jobs they
 * would also mix "documents stored" with "documents deleted" in the run's counts. Without
 * `--wait` they follow the enqueue; with it, the end of the run (none after a run that stopped,
 * as in a local sync). The workers keep each stored document's content hash and fingerprint in
 * the run; this command writes them to its journal (while waiting, and at the start of the next
 * sync), so the next sync proves unchanged files by their fingerprint as a local one does.
 */
import { normalizeDocumentId, prepareIngestion } from '@kis/client';
import {
  type FolderSource,
  folderSource,
  jsonlSource,
  loadFailure,
  type SourceItem,
  type SyncPlan,
  type SyncResult,
  type SyncSession,
  sync,
} from '@kis/node';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../../errors.js';
import { printFailureList } from '../../failure-list.js';
import { type Inputs, jsonlName } from '../../inputs.js';
import type { InterruptSource } from '../../interrupts.js';
import { loadQueue, type QueueModule } from '../../optional-queue.js';
import { formatDuration, type Output } from '../../output.js';
import { ackTaker, takeEarlierAcks } from '../../queue-mode/acks.js';
import { enqueueRun } from '../../queue-mode/enqueue.js';
import { awaitRun, exitCodeOf } from '../../queue-mode/finish.js';
import { printEnqueued, printFailure } from '../../queue-mode/report.js';
import { pathSources, producerPaths } from '../../queue-mode/sources.js';
import { type QueueTarget, queueTarget } from '../../queue-target.js';
import { connect, type Journal } from '../../run-setup.js';
import { openSyncJournal } from './journal.js';
import {
  parseMaxDelete,
  planOptions,
  type SyncCommandOptions,
  type SyncFlags,
  withPair,
} from './options.js';
import { ownership } from './ownership.js';
import { printPlanEnd } from './plan-report.js';
import { resultLine } from './result-line.js';

/** The items of the PATHs as a local sync reads them; JSONL documents are also kept. */
function syncItems(
  inputs: Inputs,
  folder: FolderSource | undefined,
  options: {
    source: string | undefined;
    idPrefix: string | undefined;
    baseDir: string | undefined;
    stdin: Context['io']['stdin'];
  },
  kept: SourceItem[],
): () => Iterable<SourceItem> | AsyncIterable<SourceItem> {
  if (inputs.jsonl.length === 0 && !inputs.stdin) return () => folder ?? [];
  const { source, idPrefix } = options;
  return () =>
    (async function* () {
      if (folder) yield* folder;
      for (const path of inputs.jsonl) {
        for await (const item of jsonlSource(path, {
          source,
          idPrefix,
          name: jsonlName(options.baseDir, path),
        })) {
          kept.push(item);
          yield item;
        }
      }
      if (inputs.stdin) {
        for await (const item of jsonlSource(options.stdin, { source, idPrefix, name: 'stdin' })) {
          kept.push(item);
          yield item;
        }
      }
    })();
}

/** The stored id a JSONL document will have (as the plan computed it), if it has one. */
function storedIdOf(item: SourceItem, ccPair: number): string | undefined {
  if (item.document === undefined) return undefined;
  try {
    return prepareIngestion(item.document, item.ccPairId ?? ccPair, false).documentId;
  } catch {
    return undefined;
  }
}

export async function runQueuedSync(
  ctx: Context,
  paths: string[],
  flags: SyncFlags,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const options = withPair(flags);
  const { out, io } = ctx;
  const q = await loadQueue('kis sync --queue');
  const target = queueTarget(ctx, options, { fromEnv: false });
  const maxDelete = parseMaxDelete(options.maxDelete);
  const { inputs, root, source, baseDir } = await producerPaths(io, paths, options);
  let ignored = 0;
  const onIgnored = (ref: string, reason: string) => {
    ignored++;
    out.result({ ref, status: 'ignored', reason });
  };
  let folder: FolderSource | undefined;
  try {
    folder =
      inputs.walk.length > 0
        ? folderSource(inputs.walk, {
            baseDir,
            include: options.include,
            exclude: options.exclude,
            source,
            idPrefix: options.namespace,
            onIgnored,
            onWarning: (ref, message) => out.warn(`${ref}: ${message}`),
          })
        : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const kept: SourceItem[] = [];
  const items = syncItems(
    inputs,
    folder,
    { source, idPrefix: options.namespace, baseDir, stdin: io.stdin },
    kept,
  );
  const owns = ownership(inputs, folder, options);
  const { client, baseUrl } = await connect(ctx, false);
  const journal = await openSyncJournal(io.cwd, options, baseUrl);
  try {
    if (journal && !options.dryRun) {
      await takeEarlierAcks(out, q, target, options.ccPair, journal.journal);
    }
    const started = Date.now();
    const session = await sync(
      client,
      items(),
      planOptions(options, owns, maxDelete, journal?.journal),
    );
    const { plan } = session;
    const planEnd = printPlanEnd(out, plan, options, 'dry run: nothing was enqueued or deleted');
    if (planEnd !== undefined) return planEnd;
    return await carryOut(ctx, {
      q,
      target,
      options,
      plan,
      session,
      kept,
      inputs,
      root,
      baseDir,
      source,
      ignored,
      onIgnored,
      journal: journal?.journal,
      interrupts,
      baseUrl,
      started,
    });
  } finally {
    journal?.journal.close();
  }
}

interface Carry {
  q: QueueModule;
  target: QueueTarget;
  options: SyncCommandOptions;
  plan: SyncPlan;
  session: SyncSession;
  kept: SourceItem[];
  inputs: Inputs;
  root: string;
  baseDir: string | undefined;
  source: string | undefined;
  ignored: number;
  onIgnored: (ref: string, reason: string) => void;
  journal: Journal | undefined;
  interrupts: InterruptSource;
  baseUrl: string | undefined;
  started: number;
}

/** The plan carried out: the creates and updates enqueued, the deletions done here. */
async function carryOut(ctx: Context, c: Carry): Promise<ExitCodeValue> {
  const { out } = ctx;
  const { q, target, options, plan } = c;
  const send = new Set([...plan.create, ...plan.update].map((e) => e.documentId));
  const localFailures: string[] = [];
  const documents: SourceItem[] = [];
  for (const item of c.kept) {
    if (item.load !== undefined) {
      localFailures.push(
        printFailure(out, { ref: item.ref, documentId: null, reason: await loadFailure(item) }),
      );
      continue;
    }
    const id = storedIdOf(item, options.ccPair);
    if (id !== undefined && send.has(id)) documents.push(item);
  }
  // the files walked again (no file is read): only those the plan sends
  const sources = pathSources(
    { walk: c.inputs.walk, jsonl: [], stdin: false },
    {
      root: c.root,
      baseDir: c.baseDir,
      include: options.include,
      exclude: options.exclude,
      source: c.source,
      idPrefix: options.namespace,
      onIgnored: () => undefined, // said while planning
      select: ({ id }) => id !== undefined && send.has(normalizeDocumentId(id)),
    },
  );
  if (documents.length > 0) sources.push({ kind: 'documents', documents });
  let runId: string | undefined;
  let enqueued = 0;
  // paths that cannot become documents are enqueued too: the run records them failed
  if (send.size > 0 || plan.unknown.length > 0) {
    const result = await enqueueRun(
      ctx,
      q,
      target,
      sources,
      {
        ...options,
        ccPairId: options.ccPair,
        source: c.source,
        idPrefix: options.namespace,
        acknowledgements: true,
      },
      c.interrupts,
    );
    runId = result.runId;
    enqueued = result.documents;
    printEnqueued(out, result, target, { ignored: c.ignored, localFailed: localFailures.length });
    if (result.interrupted) {
      out.warn(
        `interrupted: run ${result.runId} holds the ${result.documents} document(s) enqueued; nothing was deleted`,
      );
      return ExitCode.Interrupted;
    }
  } else out.info('nothing to send');

  if (!options.wait || runId === undefined) {
    const deletions = await deleteGone(ctx, c);
    printSyncSummary(out, {
      runId,
      enqueued,
      plan,
      stored: undefined,
      deletions,
      localFailed: localFailures.length,
      elapsedMs: Date.now() - c.started,
    });
    printFailureList(out, localFailures);
    return localFailures.length + deletions.failed > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
  }

  const acks = ackTaker(q, target, options.ccPair, c.journal, runId);
  const { end, failures } = await awaitRun(ctx, q, target, {
    runId,
    label: 'syncing',
    ignored: c.ignored,
    localFailures,
    interrupts: c.interrupts,
    onPoll: acks.onPoll,
  });
  await acks.takeNow();
  // as a local sync: nothing deleted after a run that stopped or was left
  const deletions = end.how === 'finished' ? await deleteGone(ctx, c) : { deleted: 0, failed: 0 };
  printSyncSummary(out, {
    runId,
    enqueued,
    plan,
    stored: end.run,
    deletions,
    localFailed: localFailures.length,
    elapsedMs: Date.now() - c.started,
  });
  printFailureList(out, failures);
  const failed = (end.run?.documents.failed ?? 0) + localFailures.length + deletions.failed;
  return exitCodeOf(ctx, end, failed, target, runId);
}

/** The plan's deletions (with --prune), each reported as a local sync reports it. */
export async function deleteGone(
  ctx: Context,
  c: Pick<Carry, 'options' | 'plan' | 'session' | 'baseUrl'>,
): Promise<{ deleted: number; failed: number }> {
  const counts = { deleted: 0, failed: 0 };
  if (!c.options.prune || c.plan.delete.length === 0 || c.plan.pruneBlocked) return counts;
  for await (const r of c.session.run({ send: false })) {
    reportDeletion(ctx.out, r, c.baseUrl);
    if (r.status === 'deleted') counts.deleted++;
    else counts.failed++;
  }
  return counts;
}

function reportDeletion(out: Output, r: SyncResult, baseUrl: string | undefined): void {
  const { line, reason } = resultLine(r, baseUrl);
  const text = `delete  ${r.status.padEnd(8)} ${r.documentId ?? '?'}${reason === undefined ? '' : `: ${reason}`}`;
  out.result(line, out.mode.verbose || r.status !== 'deleted' ? text : undefined);
}

/** The summary of a queued sync: what was enqueued (and with --wait, stored), deleted, failed. */
export function printSyncSummary(
  out: Output,
  s: {
    runId: string | undefined;
    enqueued: number;
    plan: SyncPlan;
    stored:
      | { documents: { created: number; updated: number; failed: number; pending: number } }
      | undefined;
    deletions: { deleted: number; failed: number };
    localFailed: number;
    elapsedMs: number;
  },
): void {
  const d = s.stored?.documents;
  const failed = (d?.failed ?? 0) + s.localFailed;
  out.result(
    {
      summary: {
        run_id: s.runId ?? null,
        enqueued: s.enqueued,
        ...(d ? { created: d.created, updated: d.updated, pending: d.pending } : {}),
        unchanged: s.plan.unchanged.length,
        deleted: s.deletions.deleted,
        delete_failed: s.deletions.failed,
        failed,
        elapsed_ms: s.elapsedMs,
      },
    },
    d
      ? `Done in ${formatDuration(s.elapsedMs)}: ${d.created} created, ${d.updated} updated by the queue's workers, ${s.plan.unchanged.length} unchanged, ${s.deletions.deleted} deleted, ${failed} failed`
      : `Enqueued ${s.enqueued} document(s) to send in ${formatDuration(s.elapsedMs)}; ${s.plan.unchanged.length} unchanged, ${s.deletions.deleted} deleted${failed ? `, ${failed} failed` : ''}`,
  );
}
