/**
 * `kis sync PATH… --cc-pair ID`: a shell over the client's `kis.sync`. The paths become items as
 * for `kis ingest` (their ids known before reading); the command says which ids the source owns,
 * prints the plan, and reports the run. Planning, the journal, retries, outages and deletions are
 * the client's.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SyncPlan, SyncResult, SyncSummary } from '@kis/client';
import { normalizeDocumentId } from '@kis/spec/rules';
import type { Context } from '../context.js';
import { checkSource } from '../enums.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../errors.js';
import { describeFailure } from '../failure.js';
import { formatDuration, type Output } from '../output.js';
import { createProgress } from '../progress.js';
import { fileKey } from '../walk.js';
import {
  connect,
  type IngestOptions,
  type InterruptSource,
  onInterrupts,
  openRunJournal,
  runLimits,
} from './ingest/index.js';
import { type Inputs, readInputs, resolveBaseDir, units } from './ingest/inputs.js';
import { entryOf } from './ingest/items.js';

export interface SyncCommandOptions extends Omit<IngestOptions, 'ccPair'> {
  ccPair: number;
  prune?: boolean;
  /** `--max-delete N|P%`. */
  maxDelete?: string;
  force?: boolean;
  namespace?: string;
}

/** `--max-delete`: a count or a share. */
export function parseMaxDelete(value: string | undefined): number | `${number}%` | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  if (/^\d+(\.\d+)?%$/.test(value) && Number.parseFloat(value) <= 100) return value as `${number}%`;
  throw new UsageError(
    `--max-delete: expected a count (e.g. 20) or a share (e.g. 10%), got "${value}"`,
  );
}

/**
 * The ids this sync owns (the only ones it may delete): `--namespace`, else each directory's
 * path and each file's id. A directory that is the base directory itself would own every id of
 * the pair, so a prune then needs `--namespace`; so do JSONL and stdin inputs.
 */
async function ownership(
  inputs: Inputs,
  baseDir: string,
  options: SyncCommandOptions,
): Promise<readonly string[] | ((id: string) => boolean)> {
  if (options.namespace !== undefined) return [options.namespace];
  const needNamespace = (why: string) =>
    new UsageError(`sync --prune: ${why}; give --namespace PREFIX (the ids this sync owns)`);
  if (options.prune && (inputs.jsonl.length > 0 || inputs.stdin)) {
    throw needNamespace('JSONL input carries ids of its own');
  }
  const prefixes: string[] = [];
  const exact = new Set<string>();
  for (const path of inputs.walk) {
    const key = fileKey(baseDir, path);
    if ((await stat(path)).isDirectory()) {
      if (path === baseDir && options.prune)
        throw needNamespace('the base directory owns every id');
      prefixes.push(normalizeDocumentId(`${key}/`));
    } else exact.add(normalizeDocumentId(key));
  }
  return (id) => exact.has(id) || prefixes.some((p) => id.startsWith(p));
}

/** The default journal: `.kis/sync/<base URL>-pair-<id>.jsonl`, one per server and pair. */
function defaultJournal(baseUrl: string, ccPair: number): string {
  const name = baseUrl.replace(/^https?:\/\//, '').replace(/[^A-Za-z0-9.-]+/g, '_');
  return join('.kis', 'sync', `${name}-pair-${ccPair}.jsonl`);
}

/** A stored id as people wrote it (`docs%2Fa.md` → `docs/a.md`), for text output. */
function readableId(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

function printPlan(out: Output, plan: SyncPlan, options: SyncCommandOptions): void {
  const perDocument = out.mode.json || out.mode.verbose;
  if (perDocument) {
    for (const action of ['create', 'update', 'unchanged', 'delete'] as const) {
      for (const e of plan[action]) {
        out.result(
          { plan: action, document_id: e.documentId, ...(e.ref ? { ref: e.ref } : {}) },
          `${action.padEnd(9)} ${e.ref ?? readableId(e.documentId)}`,
        );
      }
    }
  }
  const counts = {
    create: plan.create.length,
    update: plan.update.length,
    unchanged: plan.unchanged.length,
    delete: plan.delete.length,
    owned: plan.owned,
  };
  out.result(
    {
      plan: counts,
      prune: options.prune === true,
      ...(plan.refused ? { refused: plan.refused } : {}),
    },
    `Plan for cc pair ${options.ccPair}: ${counts.create} to create, ${counts.update} to update, ${counts.unchanged} unchanged, ${counts.delete} to delete (of ${counts.owned} owned)`,
  );
  if (counts.delete > 0 && !options.prune) {
    out.info(`${counts.delete} owned document(s) are gone from the source; --prune deletes them`);
  }
  if (plan.pruneBlocked) out.warn(`not pruning: ${plan.pruneBlocked}`);
}

function summaryLines(s: SyncSummary, elapsedMs: number): string[] {
  const how = s.stopped ? 'Stopped' : 'Done';
  return [
    `${how} in ${formatDuration(elapsedMs)}: ${s.created} created, ${s.updated} updated, ${s.unchanged} unchanged, ${s.deleted} deleted, ${s.failed} failed${s.notDeletable ? `, ${s.notDeletable} not deletable` : ''}${s.aborted ? `, ${s.aborted} aborted` : ''}`,
  ];
}

export async function syncCommand(
  ctx: Context,
  paths: string[],
  options: SyncCommandOptions,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const { out, io } = ctx;
  const limits = runLimits(options);
  const maxDelete = parseMaxDelete(options.maxDelete);
  const source = options.source === undefined ? undefined : checkSource('--source', options.source);
  const baseDir = await resolveBaseDir(io.cwd, options.baseDir);
  const inputs = await readInputs(paths, io);
  const owns = await ownership(inputs, baseDir, options);
  const { client, baseUrl } = await connect(ctx, false);
  const journal = await openRunJournal(
    options.journal ?? defaultJournal(baseUrl ?? '', options.ccPair),
    io.cwd,
  );
  const filter = { include: options.include, exclude: options.exclude };
  const itemOptions = {
    source,
    idPrefix: options.namespace,
    uploadFailure: (error: unknown) => describeFailure(error, baseUrl).message,
  };
  async function* items() {
    for await (const unit of units(inputs, io.stdin, baseDir, filter)) {
      const entry = entryOf(unit, itemOptions);
      if (entry.kind === 'item') yield entry.item;
      else out.result({ ref: entry.ref, status: 'ignored', reason: entry.reason });
    }
  }
  const progress = createProgress(io, {
    label: 'syncing',
    enabled: !out.mode.quiet,
    paint: out.err,
  });
  const abort = new AbortController();
  const started = Date.now();
  try {
    const session = await client.sync(items(), {
      ...limits,
      ccPairId: options.ccPair,
      owns,
      journal: journal?.journal,
      signal: abort.signal,
      onProgress: (p) =>
        progress.update({
          processed: p.done,
          failed: p.failed,
          skipped: p.skipped,
          ratePerSec: p.ratePerSec,
          concurrency: p.concurrency,
          waiting: p.waiting,
          pausedSince: p.pausedSince,
          pauseReason: p.pauseReason,
        }),
      ...(options.prune ? { prune: true } : {}),
      ...(maxDelete === undefined ? {} : { maxDelete }),
      ...(options.force ? { force: true } : {}),
    });
    const { plan } = session;
    printPlan(out, plan, options);
    if (plan.refused) {
      out.error(
        `refusing to sync: ${plan.refused.replace('force it', 'pass --force (or raise --max-delete)')}`,
      );
      return ExitCode.Usage;
    }
    if (options.dryRun) {
      out.info('dry run: nothing was sent');
      return ExitCode.Ok;
    }
    progress.setTotal(plan.create.length + plan.update.length + plan.unknown.length);
    const run = session.run();
    const interruption = onInterrupts(interrupts, {
      first: () => {
        progress.log(
          'interrupted: finishing the requests in flight (press Ctrl-C again to abort them)',
        );
        run.stop();
      },
      again: () => abort.abort(),
    });
    const failures: string[] = [];
    let summary: SyncSummary;
    try {
      for await (const r of run) report(out, r, failures, baseUrl);
      summary = await run.done();
    } finally {
      interruption.off();
    }
    progress.stop();
    const elapsedMs = Date.now() - started;
    out.result(
      { summary: { ...summary, ingest: undefined, elapsed_ms: elapsedMs } },
      summaryLines(summary, elapsedMs),
    );
    if (failures.length > 0 && !out.mode.json) {
      out.human('Failures:');
      for (const f of failures) out.human(`  ${f}`);
    }
    if (summary.stopped && interruption.count() === 0) {
      out.error(`the run stopped: ${summary.stopped}; run the same command again to resume`);
      return ExitCode.Fatal;
    }
    if (interruption.count() > 0) return ExitCode.Interrupted;
    return summary.failed + summary.notDeletable > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
  } finally {
    progress.stop();
    journal?.journal.close();
  }
}

/** One result: a JSON line (`--json`), a text line with `--verbose`; failures kept for the end. */
function report(out: Output, r: SyncResult, failures: string[], baseUrl: string | undefined): void {
  const line: Record<string, unknown> = { action: r.action, status: r.status };
  if (r.documentId) line.document_id = r.documentId;
  if (r.ref) line.ref = r.ref;
  const name = r.ref ?? (r.documentId ? readableId(r.documentId) : '?');
  if (r.status === 'failed' || r.status === 'not-deletable') {
    const reason = describeFailure(r.error, baseUrl).message;
    line.error = reason;
    failures.push(`${r.action} ${name}: ${reason}`);
  }
  out.result(
    line,
    out.mode.verbose ? `${r.action.padEnd(7)} ${r.status.padEnd(8)} ${name}` : undefined,
  );
}
