/**
 * `kis ingest PATH… --queue URL`: the paths planned as a local run plans them (the same files, ids
 * and order), enqueued as jobs that name the documents (`@kis/queue`'s `enqueue`), for
 * `kis worker` processes to send; prints the run id, or with `--wait` follows the run to its end.
 */
import type { Context } from '../../context.js';
import { checkSource } from '../../enums.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { readInputs, resolveBaseDir } from '../../inputs.js';
import type { InterruptSource } from '../../interrupts.js';
import { loadQueue } from '../../optional-queue.js';
import { enqueueRun } from '../../queue-mode/enqueue.js';
import { waitAndReport } from '../../queue-mode/finish.js';
import type { QueueFlags } from '../../queue-mode/options.js';
import { printEnqueued, printFailure } from '../../queue-mode/report.js';
import { pathSources, resolveRoot, stdinDocuments } from '../../queue-mode/sources.js';
import { queueCall, queueTarget } from '../../queue-target.js';
import type { RunFlags } from '../../run-options.js';
import { pairsLabel } from './report.js';

/** What `kis ingest --queue` reads. */
export interface QueuedIngestOptions extends RunFlags, QueueFlags {
  ccPair?: number;
}

export async function runQueuedIngest(
  ctx: Context,
  paths: string[],
  options: QueuedIngestOptions,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const { out, io } = ctx;
  const q = await loadQueue('kis ingest --queue');
  const target = queueTarget(ctx, options, { fromEnv: false });
  const source = options.source === undefined ? undefined : checkSource('--source', options.source);
  const baseDir =
    options.baseDir === undefined ? undefined : await resolveBaseDir(io.cwd, options.baseDir);
  const inputs = await readInputs(paths, io);
  const root = await resolveRoot(io.cwd, options.root);

  let ignored = 0;
  const localFailures: string[] = [];
  const sources = pathSources(inputs, {
    root,
    baseDir,
    include: options.include,
    exclude: options.exclude,
    source,
    idPrefix: undefined,
    onIgnored: (ref, reason) => {
      ignored++;
      out.result({ ref, status: 'ignored', reason });
    },
  });
  if (inputs.stdin) {
    const documents = stdinDocuments(io.stdin, { source, idPrefix: undefined }, (ref, reason) =>
      localFailures.push(printFailure(out, { ref, documentId: null, reason })),
    );
    sources.push({ kind: 'documents', documents });
  }
  const result = await enqueueRun(
    ctx,
    q,
    target,
    sources,
    { ...options, ccPairId: options.ccPair, source },
    interrupts,
  );
  printEnqueued(out, result, target, { ignored, localFailed: localFailures.length });
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
    if (localFailures.length > 0 && !out.mode.json) {
      out.human('Failures:');
      for (const f of localFailures) out.human(`  ${f}`);
    }
    return localFailures.length > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
  }
  return waitAndReport(ctx, q, target, {
    runId: result.runId,
    label: 'ingesting',
    ignored,
    localFailures,
    pairs: pairsLabel(new Set([options.ccPair ?? null])),
    interrupts,
  });
}
