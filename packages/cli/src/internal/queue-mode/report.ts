/**
 * What `kis ingest --queue` and `kis sync --queue` say: the run enqueued (its id, and how to follow
 * it), and with `--wait` the failed documents with the server's reasons and the summary, in the
 * shapes of local runs (`{"ref", "status": "failed", "error"}` lines, a `{"summary": …}` line).
 */
import type { EnqueueResult, FailedDocument, RunStatus } from '@kis/queue';
import { printFailureList } from '../failure-list.js';
import type { Output } from '../output.js';
import { formatDuration, formatRate } from '../output.js';
import type { QueueTarget } from '../queue-target.js';
import { shownQueueUrl } from '../queue-target.js';

/** `--queue URL` (and `--queue-name`) as a user types them again, the password hidden. */
export function queueFlags(target: QueueTarget): string {
  const name = target.queue === undefined ? '' : ` --queue-name ${target.queue}`;
  return `--queue ${shownQueueUrl(target.connection)}${name}`;
}

/** The `{"enqueued": …}` line, or its text: the run id and how to follow it. */
export function printEnqueued(
  out: Output,
  result: EnqueueResult,
  target: QueueTarget,
  extra: { ignored: number; localFailed: number; skipped?: number },
): void {
  const skipped = extra.skipped ?? 0;
  out.result(
    {
      enqueued: {
        run_id: result.runId,
        queue: result.queue,
        documents: result.documents,
        jobs: result.jobs,
        failed: result.failed + extra.localFailed,
        ignored: extra.ignored,
        skipped,
        batch_size: result.batchSize,
        rate_per_sec: result.ratePerSec,
        interrupted: result.interrupted,
        elapsed_ms: result.elapsedMs,
      },
    },
    [
      `${result.interrupted ? 'Interrupted: enqueued' : 'Enqueued'} run ${result.runId}: ${result.documents} document(s) in ${result.jobs} job(s) on queue ${result.queue} (${formatDuration(result.elapsedMs)})`,
      ...(skipped > 0
        ? [`  ${skipped} skipped (already acknowledged unchanged, from the journal)`]
        : []),
      ...(extra.ignored > 0
        ? [`  ${extra.ignored} ignored (unsupported file types found in directories)`]
        : []),
      `  follow it: kis queue status ${result.runId} ${queueFlags(target)}`,
    ],
  );
}

/** A failed document as a result line (`--json`), and its text for the list at the end. */
export function printFailure(
  out: Output,
  failure: Pick<FailedDocument, 'ref' | 'documentId' | 'reason'>,
): string {
  const ref = failure.ref ?? failure.documentId ?? '?';
  out.result({
    ref,
    status: 'failed',
    ...(failure.documentId ? { document_id: failure.documentId } : {}),
    error: failure.reason,
  });
  return `${ref}: ${failure.reason}`;
}

/** How a followed run ended, for its summary. */
export interface RunOutcome {
  run: RunStatus | undefined;
  elapsedMs: number;
  interrupted: boolean;
  stopped: string | undefined;
  ignored: number;
  /** Failed here (stdin lines that are not documents). */
  localFailed: number;
}

/** The `{"summary": …}` line (`--json`) or the text summary of a run followed with `--wait`. */
export function printRunSummary(
  out: Output,
  outcome: RunOutcome,
  failures: readonly string[],
  pairs: string,
): void {
  const d = outcome.run?.documents;
  const failed = (d?.failed ?? 0) + outcome.localFailed;
  const stored = d?.stored ?? 0;
  // as a local run: documents stored per second of the run as this command saw it
  const ratePerSec =
    outcome.elapsedMs > 0 ? Math.round((stored * 100_000) / outcome.elapsedMs) / 100 : 0;
  out.result({
    summary: {
      run_id: outcome.run?.runId,
      created: d?.created ?? 0,
      updated: d?.updated ?? 0,
      failed,
      ignored: outcome.ignored,
      pending: d?.pending ?? 0,
      // acknowledgements of documents stored already: sends repeated after a worker died
      duplicates: d?.duplicates ?? 0,
      elapsed_ms: outcome.elapsedMs,
      rate_per_sec: ratePerSec,
      interrupted: outcome.interrupted,
      ...(outcome.stopped ? { stopped: { reason: 'queue', message: outcome.stopped } } : {}),
    },
  });
  if (out.mode.json) return;
  const pad = (n: number) => String(n).padStart(7);
  const how = outcome.stopped ? 'Stopped' : outcome.interrupted ? 'Stopped waiting' : 'Done';
  out.human(
    `${how}: ${stored} document(s) ingested into ${pairs} by the queue's workers in ${formatDuration(outcome.elapsedMs)} (${formatRate(ratePerSec)})`,
  );
  out.human(`${pad(d?.created ?? 0)} created`);
  out.human(`${pad(d?.updated ?? 0)} updated`);
  out.human(`${failed > 0 ? out.out.red(pad(failed)) : pad(failed)} failed`);
  if ((d?.pending ?? 0) > 0) out.human(`${pad(d?.pending ?? 0)} pending (still in the queue)`);
  if (outcome.ignored > 0) {
    out.human(`${pad(outcome.ignored)} ignored (unsupported file types found in directories)`);
  }
  if ((d?.duplicates ?? 0) > 0) {
    out.human(`${pad(d?.duplicates ?? 0)} sent again after a worker stopped (upserts, harmless)`);
  }
  printFailureList(out, failures);
}
