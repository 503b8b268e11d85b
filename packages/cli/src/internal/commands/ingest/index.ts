/**
 * `kis ingest PATH…`: a thin shell over the client's `ingestMany`. The command turns paths into
 * the client's folder and JSONL sources (inputs.ts) and reports what the run says (report.ts);
 * concurrency, retries, outages, the journal, image uploads and stopping are the client's.
 */
import type { IngestRun, IngestSummary } from '@kis/client';
import type { Context } from '../../context.js';
import { checkSource } from '../../enums.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { describeFailure } from '../../failure.js';
import { inputSources, readInputs, resolveBaseDir } from '../../inputs.js';
import { type InterruptSource, onInterrupts } from '../../interrupts.js';
import type { Output } from '../../output.js';
import { createProgress } from '../../progress.js';
import { type RunFlags, runLimits } from '../../run-options.js';
import { connect, openRunJournal } from '../../run-setup.js';
import { IngestReport, stopMessage } from './report.js';

/** What `kis ingest` reads besides the options it shares with `kis sync`. */
export interface IngestOptions extends RunFlags {
  ccPair?: number;
  journal?: string;
  dryRun?: boolean;
}

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
