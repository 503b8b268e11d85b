/**
 * `kis ingest PATH…`: a thin shell over the client's `ingestMany`. The command turns paths into
 * the client's folder and JSONL sources (inputs.ts) and reports what the run says (report.ts);
 * concurrency, retries, outages, the journal, image uploads and stopping are the client's.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { IngestManyOptions, IngestRun, IngestSummary, KisClient } from '@kis/client';
import { fsReason, openJournal } from '@kis/node';
import type { Context } from '../../context.js';
import { checkSource } from '../../enums.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../../errors.js';
import { describeFailure } from '../../failure.js';
import type { Output } from '../../output.js';
import { createProgress } from '../../progress.js';
import { inputSources, readInputs, resolveBaseDir } from './inputs.js';
import { IngestReport, stopMessage } from './report.js';

export { pairsLabel } from './report.js';

export interface IngestOptions {
  ccPair?: number;
  source?: string;
  /** The most requests in flight: the ceiling of the adaptive limit. */
  concurrency: number;
  minConcurrency?: number;
  /** Keep the limit at `concurrency` (no adaptation). */
  fixedConcurrency?: boolean;
  /** `--retry-for`, in ms. */
  retryFor?: number;
  /** `--max-outage`, in ms. */
  maxOutage?: number;
  journal?: string;
  dryRun?: boolean;
  include: string[];
  exclude: string[];
  baseDir?: string;
}

/** The signals that interrupt a run; injectable so tests can drive them in-process. */
export interface InterruptSource {
  on(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

export type Journal = NonNullable<IngestManyOptions['journal']> & { close(): void };

export async function ingestCommand(
  ctx: Context,
  paths: string[],
  options: IngestOptions,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const { out, io } = ctx;
  const limits = runLimits(options);
  const source = options.source === undefined ? undefined : checkSource('--source', options.source);
  const baseDir = await resolveBaseDir(io.cwd, options.baseDir);
  const inputs = await readInputs(paths, io);
  const dryRun = options.dryRun === true;
  const { client, baseUrl } = await connect(ctx, dryRun);
  const journal = dryRun ? undefined : await openRunJournal(options.journal, io.cwd);

  const report = new IngestReport(out, { dryRun, baseUrl });
  const progress = createProgress(io, {
    label: dryRun ? 'checking' : 'ingesting',
    enabled: !out.mode.quiet,
    paint: out.err,
  });
  let run: IngestRun | undefined;
  const sources = inputSources(inputs, io.stdin, {
    baseDir,
    include: options.include,
    exclude: options.exclude,
    source,
    describeUploadFailure: (error) => describeFailure(error, baseUrl).message,
    onIgnored: (ref, reason) => {
      report.ignore(ref, reason);
      if (run) progress.update(report.progress(run.progress()));
    },
    // a file read with less than its kind asks (MDX read as Markdown text): sent, and said
    onWarning: (ref, message) => progress.log(`${out.err.yellow('warning:')} ${ref}: ${message}`),
  });
  if (!inputs.stdin) {
    sources.count().then(
      (total) => progress.setTotal(total),
      () => undefined,
    );
  }
  const abort = new AbortController();
  run = client.ingestMany(sources.items(), {
    ...limits,
    dryRun,
    signal: abort.signal,
    onProgress: (p) => progress.update(report.progress(p)),
    ...(options.ccPair === undefined ? {} : { ccPairId: options.ccPair }),
    ...(journal ? { journal: journal.journal } : {}),
  });
  const interruption = onInterrupts(interrupts, {
    first: () => {
      progress.log(
        'interrupted: finishing the requests in flight (press Ctrl-C again to abort them)',
      );
      run?.stop();
    },
    again: () => abort.abort(),
  });

  let summary: IngestSummary;
  try {
    for await (const result of run) report.result(result);
    summary = await run.summary;
  } finally {
    interruption.off();
    progress.stop();
    journal?.journal.close();
  }
  const interrupted = interruption.count() > 0;
  report.summary(summary, { interrupted, journalPath: journal?.path, ccPair: options.ccPair });
  return exitCode(out, summary, { interrupted, baseUrl, journal: options.journal });
}

/**
 * The run's limits from `--concurrency`, `--min-concurrency`, `--fixed-concurrency`, `--retry-for`
 * and `--max-outage` (usage errors for combinations that make no sense).
 */
export function runLimits(options: IngestOptions): IngestManyOptions {
  const { concurrency, minConcurrency } = options;
  if (minConcurrency !== undefined) {
    if (options.fixedConcurrency === true) {
      throw new UsageError(
        '--min-concurrency: not with --fixed-concurrency (the limit stays at --concurrency)',
      );
    }
    if (minConcurrency > concurrency) {
      throw new UsageError(
        `--min-concurrency: ${minConcurrency} is above --concurrency ${concurrency}`,
      );
    }
  }
  return {
    concurrency,
    adaptive: options.fixedConcurrency !== true,
    ...(minConcurrency === undefined ? {} : { minConcurrency }),
    ...(options.retryFor === undefined ? {} : { retryForMs: options.retryFor }),
    ...(options.maxOutage === undefined ? {} : { maxOutageMs: options.maxOutage }),
  };
}

/** The client: the configured one, or for a dry run (which sends nothing) one without a server. */
export async function connect(
  ctx: Context,
  dryRun: boolean,
): Promise<{ client: KisClient; baseUrl: string | undefined }> {
  if (dryRun) return { client: await ctx.offlineClient(), baseUrl: undefined };
  const { baseUrl } = await ctx.connection();
  return { client: await ctx.client(), baseUrl };
}

/** Opens `--journal FILE` (creating its directory); usage error when it cannot be used. */
export async function openRunJournal(
  file: string | undefined,
  cwd: string,
): Promise<{ journal: Journal; path: string } | undefined> {
  if (file === undefined) return undefined;
  const path = resolve(cwd, file);
  try {
    await mkdir(dirname(path), { recursive: true });
    return { journal: openJournal(path, { fsync: false }), path };
  } catch (error) {
    throw new UsageError(`--journal: cannot use "${file}": ${fsReason(error)}`);
  }
}

/** Listens for Ctrl-C (and SIGTERM): `first` the first time, `again` after that. */
export function onInterrupts(
  interrupts: InterruptSource,
  handlers: { first: () => void; again: () => void },
): { count(): number; off(): void } {
  let count = 0;
  const listener = () => {
    count++;
    if (count === 1) handlers.first();
    else handlers.again();
  };
  interrupts.on('SIGINT', listener);
  interrupts.on('SIGTERM', listener);
  return {
    count: () => count,
    off: () => {
      interrupts.off('SIGINT', listener);
      interrupts.off('SIGTERM', listener);
    },
  };
}

/**
 * 3 when the client stopped the run (with the reason on one line), 130 when interrupted, 1 when
 * some documents failed, else 0.
 */
function exitCode(
  out: Output,
  summary: IngestSummary,
  end: { interrupted: boolean; baseUrl: string | undefined; journal: string | undefined },
): ExitCodeValue {
  if (summary.stopped) {
    out.error(stopMessage(summary, end.baseUrl));
    return ExitCode.Fatal;
  }
  if (end.interrupted) {
    out.warn(
      end.journal !== undefined
        ? `interrupted; run the same command again (with --journal ${end.journal}) to resume`
        : 'interrupted; run again with --journal FILE to make runs resumable (documents already sent are updated, not duplicated)',
    );
    return ExitCode.Interrupted;
  }
  return summary.failed > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
}
