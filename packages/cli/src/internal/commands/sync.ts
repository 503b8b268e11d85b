/**
 * `kis sync PATH… --cc-pair ID`: a shell over the client's `kis.sync`. The paths become items as
 * for `kis ingest` (their ids known before reading); the command says which ids the source owns,
 * prints the plan, and reports the run. Planning, the journal, retries, outages and deletions are
 * the client's.
 */
import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { KisClient } from '@kis/client';
import {
  type FolderSource,
  type SyncItem,
  type SyncOptions,
  type SyncPlan,
  type SyncResult,
  type SyncRun,
  type SyncSummary,
  sync,
} from '@kis/node';
import type { Context } from '../context.js';
import { checkSource } from '../enums.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../errors.js';
import { describeFailure } from '../failure.js';
import { type Inputs, inputSources, readInputs, resolveBaseDir } from '../inputs.js';
import { type InterruptSource, onInterrupts } from '../interrupts.js';
import { formatDuration, type Output } from '../output.js';
import { createProgress, progressCounts } from '../progress.js';
import { type RunFlags, runLimits } from '../run-options.js';
import { connect, openRunJournal } from '../run-setup.js';
import { stateFile } from '../state-files.js';

export interface SyncCommandOptions extends RunFlags {
  ccPair: number;
  journal?: string;
  dryRun?: boolean;
  prune?: boolean;
  /** `--max-delete N|P%`. */
  maxDelete?: string;
  force?: boolean;
  namespace?: string;
  /** Keep syncing as the paths change. */
  watch?: boolean;
}

/** How long a file must stay unchanged before its change counts, and the wait for more events. */
const WATCH_SETTLE_MS = 300;
const WATCH_DEBOUNCE_MS = 400;

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
 * path and each file's id. A PATH that is the base directory itself would own every id of the
 * pair, so a prune then needs `--namespace`; so do JSONL and stdin inputs, whose ids are their
 * own.
 */
function ownership(
  inputs: Inputs,
  folder: FolderSource | undefined,
  options: SyncCommandOptions,
): readonly string[] | ((id: string) => boolean) {
  if (options.namespace === '') throw new UsageError('--namespace: expected a non-empty prefix');
  if (options.namespace !== undefined) return [options.namespace];
  const needNamespace = (why: string) =>
    new UsageError(`sync --prune: ${why}; give --namespace PREFIX (the ids this sync owns)`);
  if (options.prune && (inputs.jsonl.length > 0 || inputs.stdin)) {
    throw needNamespace('JSONL input carries ids of its own');
  }
  if (folder?.ownsEverything) {
    if (options.prune) throw needNamespace('the base directory owns every id');
    return ownsNothing; // without --prune: other sources' documents are not reported as gone
  }
  return folder ? folder.owns : ownsNothing;
}

/** What a sync owns with no --namespace and only JSONL input, or the base directory as PATH. */
const ownsNothing = (): boolean => false;

/** The default journal: `.kis/sync/<base URL>-pair-<id>.jsonl`, one per server and pair. */
function defaultJournal(baseUrl: string, ccPair: number): string {
  return stateFile('sync', baseUrl, `-pair-${ccPair}.jsonl`);
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
    // a line per document of the source (thousands): each built only in the form printed
    const json = out.mode.json;
    out.batch(() => {
      for (const action of ['create', 'update', 'unchanged', 'delete'] as const) {
        const label = action.padEnd(9);
        for (const { documentId, ref } of plan[action]) {
          if (json) {
            out.result(
              ref
                ? { plan: action, document_id: documentId, ref }
                : { plan: action, document_id: documentId },
            );
          } else out.human(`${label} ${ref ?? readableId(documentId)}`);
        }
      }
    });
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

/** What one sync pass needs, set up once per command (and kept across `--watch` passes). */
interface Pass {
  ctx: Context;
  options: SyncCommandOptions;
  client: KisClient;
  baseUrl: string | undefined;
  items: () => Iterable<SyncItem> | AsyncIterable<SyncItem>;
  syncOptions: Omit<SyncOptions, 'signal' | 'onProgress'>;
  /** The run in progress, for Ctrl-C. */
  current: SyncRun | undefined;
  abort: AbortController;
}

/** One sync: the plan, then (unless a dry run) its run; the exit code of that pass. */
async function syncPass(pass: Pass): Promise<ExitCodeValue> {
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
    pass.current = run;
    const failures: string[] = [];
    for await (const r of run) report(out, r, failures, baseUrl);
    const summary = await run.done();
    pass.current = undefined;
    progress.stop();
    const elapsedMs = Date.now() - started;
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
    if (failures.length > 0 && !out.mode.json) {
      out.human('Failures:');
      for (const f of failures) out.human(`  ${f}`);
    }
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
  if (options.watch && (inputs.stdin || options.dryRun)) {
    throw new UsageError('sync --watch: not with - (stdin) or --dry-run');
  }
  const sources = inputSources(inputs, io.stdin, {
    baseDir,
    include: options.include,
    exclude: options.exclude,
    source,
    idPrefix: options.namespace,
    // the base URL is known by the time an upload fails
    describeUploadFailure: (error) => describeFailure(error, baseUrl).message,
    onIgnored: (ref, reason) => out.result({ ref, status: 'ignored', reason }),
    onWarning: (ref, message) => out.warn(`${ref}: ${message}`),
  });
  const owns = ownership(inputs, sources.folder, options);
  const { client, baseUrl } = await connect(ctx, false);
  const journalPath = options.journal ?? defaultJournal(baseUrl ?? '', options.ccPair);
  // a dry run reads a journal that exists and creates none
  const journal =
    options.dryRun && !existsSync(resolve(io.cwd, journalPath))
      ? undefined
      : await openRunJournal(journalPath, io.cwd);
  const pass: Pass = {
    ctx,
    options,
    client,
    baseUrl,
    items: sources.items,
    syncOptions: {
      ...limits,
      ccPairId: options.ccPair,
      owns,
      ...(journal ? { journal: journal.journal } : {}),
      ...(options.prune ? { prune: true } : {}),
      ...(maxDelete === undefined ? {} : { maxDelete }),
      ...(options.force ? { force: true } : {}),
    },
    current: undefined,
    abort: new AbortController(),
  };
  let stopWatching: (() => void) | undefined;
  const interruption = onInterrupts(interrupts, {
    first: () => {
      if (pass.current) {
        out.info(
          'interrupted: finishing the requests in flight (press Ctrl-C again to abort them)',
        );
        pass.current.stop();
      }
      stopWatching?.();
    },
    again: () => pass.abort.abort(),
  });
  try {
    const code = await syncPass(pass);
    if (!options.watch || interruption.count() > 0) return code;
    return await watchPaths(pass, [...inputs.walk, ...inputs.jsonl], code, (stop) => {
      stopWatching = stop;
    });
  } finally {
    interruption.off();
    journal?.journal.close();
  }
}

/**
 * `--watch`: after the first pass, a new pass each time the paths have changed and settled (a
 * saved file is updated, a deleted one pruned, a rename is both). Ends on Ctrl-C, with the exit
 * code of the last pass.
 */
async function watchPaths(
  pass: Pass,
  paths: string[],
  first: ExitCodeValue,
  onStop: (stop: () => void) => void,
): Promise<ExitCodeValue> {
  const { out } = pass.ctx;
  const { watch } = await import('chokidar');
  const watcher = watch(paths, {
    ignoreInitial: true,
    // hidden files are not synced (as kis ingest skips them), so their changes are not events
    ignored: (path: string) => basename(path).startsWith('.') && !paths.includes(path),
    awaitWriteFinish: { stabilityThreshold: WATCH_SETTLE_MS, pollInterval: 50 },
  });
  let last = first;
  let timer: NodeJS.Timeout | undefined;
  let pending = false;
  let running: Promise<void> | undefined;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const runPass = async () => {
    if (running) {
      pending = true; // one more pass once this one ends
      return;
    }
    running = (async () => {
      do {
        pending = false;
        last = await syncPass(pass);
      } while (pending);
    })();
    await running;
    running = undefined;
  };
  watcher.on('all', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void runPass(), WATCH_DEBOUNCE_MS);
  });
  await new Promise<void>((resolve, reject) => {
    watcher.once('ready', resolve);
    watcher.once('error', reject);
  });
  out.info(`watching ${paths.length} path(s) for changes; Ctrl-C to stop`);
  onStop(() => {
    clearTimeout(timer);
    finish();
  });
  await finished;
  await running;
  await watcher.close();
  return last;
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
