/** One pass of `kis sync`: the plan printed, then (unless a dry run) its run reported. */
import type { KisClient } from '@kis/client';
import {
  type SyncItem,
  type SyncOptions,
  type SyncResult,
  type SyncRun,
  type SyncSummary,
  sync,
} from '@kis/node';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { printFailureList } from '../../failure-list.js';
import { formatDuration, type Output } from '../../output.js';
import { createProgress, progressCounts } from '../../progress.js';
import type { SyncCommandOptions } from './options.js';
import { printPlanEnd } from './plan-report.js';
import { readableId, resultLine } from './result-line.js';

/** What one sync pass needs, set up once per command (and kept across `--watch` passes). */
export interface Pass {
  ctx: Context;
  options: SyncCommandOptions;
  client: KisClient;
  baseUrl: string | undefined;
  items: () => Iterable<SyncItem> | AsyncIterable<SyncItem>;
  syncOptions: Omit<SyncOptions, 'signal' | 'onProgress'>;
  /** The run in progress, for Ctrl-C. */
  current: SyncRun | undefined;
  abort: AbortController;
  /** After a run (not a dry run): a database's or repository's cursor or commit recorded. */
  finished?: ((summary: SyncSummary) => Promise<void>) | undefined;
}

/** One sync: the plan, then (unless a dry run) its run; the exit code of that pass. */
export async function syncPass(pass: Pass): Promise<ExitCodeValue> {
  const { ctx, options, baseUrl } = pass;
  const { out, io } = ctx;
  const progress = createProgress(io, {
    label: 'syncing',
    enabled: !out.mode.quiet,
    paint: out.err,
  });
  const started = Date.now();
  try {
    const session = await sync(pass.client, pass.items(), {
      ...pass.syncOptions,
      signal: pass.abort.signal,
      onProgress: (p) => progress.update(progressCounts(p)),
    });
    const { plan } = session;
    const planEnd = printPlanEnd(out, plan, options, 'dry run: nothing was sent');
    if (planEnd !== undefined) return planEnd;
    progress.setTotal(plan.create.length + plan.update.length + plan.unknown.length);
    const run = session.run();
    pass.current = run;
    const failures: string[] = [];
    for await (const r of run) report(out, r, failures, baseUrl);
    const summary = await run.done();
    pass.current = undefined;
    progress.stop();
    await pass.finished?.(summary);
    printSummary(out, summary, Date.now() - started, failures);
    if (summary.stopped === 'cancelled') return ExitCode.Interrupted;
    if (summary.stopped) {
      out.error(`the run stopped: ${summary.stopped}; run the same command again to resume`);
      return ExitCode.Fatal;
    }
    return summary.failed + summary.notDeletable > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
  } finally {
    pass.current = undefined;
    progress.stop();
  }
}

/** The summary (and, in text, the failures listed at the end). */
function printSummary(
  out: Output,
  summary: SyncSummary,
  elapsedMs: number,
  failures: readonly string[],
): void {
  out.result(
    {
      summary: {
        ...summary,
        ingest: undefined,
        // sends beyond one per document: retries, and hedges of slow answers
        retried: summary.ingest?.retried ?? 0,
        hedged: summary.ingest?.hedged ?? 0,
        elapsed_ms: elapsedMs,
      },
    },
    summaryLines(summary, elapsedMs),
  );
  printFailureList(out, failures);
}

function summaryLines(s: SyncSummary, elapsedMs: number): string[] {
  const how = s.stopped ? 'Stopped' : 'Done';
  return [
    `${how} in ${formatDuration(elapsedMs)}: ${s.created} created, ${s.updated} updated, ${s.unchanged} unchanged, ${s.deleted} deleted, ${s.failed} failed${s.notDeletable ? `, ${s.notDeletable} not deletable` : ''}${s.aborted ? `, ${s.aborted} aborted` : ''}`,
  ];
}

/** One result: a JSON line (`--json`), a text line with `--verbose`; failures kept for the end. */
function report(out: Output, r: SyncResult, failures: string[], baseUrl: string | undefined): void {
  const { line, reason } = resultLine(r, baseUrl);
  const name = r.ref ?? (r.documentId ? readableId(r.documentId) : '?');
  if (reason !== undefined) failures.push(`${r.action} ${name}: ${reason}`);
  out.result(
    line,
    out.mode.verbose ? `${r.action.padEnd(7)} ${r.status.padEnd(8)} ${name}` : undefined,
  );
}
