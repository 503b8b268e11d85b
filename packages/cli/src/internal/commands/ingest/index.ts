/**
 * `kis ingest PATH…`: a thin shell over the client's `ingestMany`. The command turns paths into
 * the client's folder and JSONL sources (inputs.ts) and reports what the run says (report.ts);
 * concurrency, retries, outages, the journal, image uploads and stopping are the client's.
 */
import type { IngestRun, IngestSummary } from '@kis/client';
import { DEFAULT_CC_PAIR_ID, extensionsFor, FILE_KINDS } from '@kis/rules';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { intArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { checkSource } from '../../enums.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../../errors.js';
import { describeFailure } from '../../failure.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { readInputs, resolveBaseDir } from '../../inputs.js';
import { type InterruptSource, onInterrupts } from '../../interrupts.js';
import type { Output } from '../../output.js';
import { checkPair } from '../../pair-check.js';
import { journalFor } from '../../pair-journal.js';
import { createProgress, type ProgressReporter } from '../../progress.js';
import { addQueueOptions, type QueueFlags } from '../../queue-mode/options.js';
import { addRunOptions, type RunFlags, runLimits } from '../../run-options.js';
import { connect, openRunJournal } from '../../run-setup.js';
import { locateSource, type SourceSpec } from '../../source-location.js';
import { addSourceOptions, SOURCE_HELP, type SourceFlags } from '../../source-options.js';
import { sendingPair } from './pair.js';
import { fileReading, type Reading, sourceReading } from './reading.js';
import { IngestReport, stopMessage } from './report.js';

/** What `kis ingest` reads besides the shared run options. */
export interface IngestOptions extends RunFlags, QueueFlags, SourceFlags {
  ccPair?: number;
  /** `--namespace PREFIX`: put before every document id. */
  namespace?: string;
  /** `--journal FILE`, or false for `--no-journal`. */
  journal?: string | false;
  dryRun?: boolean;
}

// What the help lists comes from the rule book (`@kis/rules`), never a copy.
const INGEST_EXTENSIONS = extensionsFor('ingest');
const IMAGE_EXTENSIONS = INGEST_EXTENSIONS.filter((ext) => FILE_KINDS[ext]?.kind === 'image');
const TEXT_EXTENSIONS = INGEST_EXTENSIONS.filter((ext) => FILE_KINDS[ext]?.kind !== 'image');

const HELP_AFTER =
  EXAMPLES([
    'kis ingest ./docs --cc-pair 2',
    'kis ingest ./docs --cc-pair 2 --base-dir .',
    'kis ingest ./docs --cc-pair 2 --concurrency 16 --retry-for 30m --max-outage 15m',
    'kis ingest ./docs --cc-pair 2 --concurrency 4 --fixed-concurrency',
    'kis ingest export.jsonl --cc-pair 2',
    'cat export.jsonl | kis ingest - --cc-pair 2',
    "kis ingest ./site --include '*.html' --exclude 'drafts/**' --source web --dry-run",
    'kis ingest "$CRM_URL" --cc-pair 3 --table tickets --id id --title subject --text body,notes --updated-at updated_at',
    'kis ingest git+file:///srv/handbook#main --cc-pair 4 --link "https://git.example.com/handbook/blob/{ref}/{path}"',
  ]) +
  `
${wrap(
  `Files (${TEXT_EXTENSIONS.join(' ')}, images ${IMAGE_EXTENSIONS.join(' ')}) become one document
each. Its id is the same wherever the command runs: <folder name>/<path inside> for a folder's
files (kis ingest docs, kis ingest . inside docs and kis ingest /srv/docs all give docs/a.md),
a file's name for a file given alone; two folders of the same name are refused. --base-dir DIR
makes ids paths relative to DIR instead: --base-dir . is the rule of earlier versions (paths
relative to the current directory), which keeps the ids of documents they sent. A re-run
updates instead of duplicating; metadata records file_type and relative_path (the id's path).
Images are uploaded (once per distinct content) and become image sections. Hidden entries and
unsupported types inside directories are ignored, counted by reason. A JSONL line is a
document, or an ingestion request {"document", "cc_pair_id"}.
Without --cc-pair, documents go to pair ${DEFAULT_CC_PAIR_ID}, the server's default ingestion pair (said
on stderr). The run keeps the pair's journal (.kis/sync/<base URL>-pair-<id>.jsonl, shared with
kis sync; --journal FILE for another, --no-journal for none): documents it holds as acknowledged
with the same content are skipped, and a kis sync of the same files after it sends nothing.
Each document is retried until it is stored or its failure is final (--retry-for); when the
server stops answering, the run pauses and resumes by itself, and stops (exit 3) after
--max-outage. Ctrl-C finishes the requests in flight, records them in the journal and exits 130;
run the same command again to resume. --dry-run needs no server: it prints each document's id,
then counts by file kind and what it would ignore, by reason.`,
)}

${SOURCE_HELP}
`;

/** `kis ingest`: the shared run options, then its own. */
export function ingestCommand({ act, interrupts, command }: CommandEnv): Command {
  return addQueueOptions(addSourceOptions(addRunOptions(command('ingest'))))
    .description(
      'push files, folders, JSONL exports, the rows of a database query or the files of a git repository into the index: concurrent, resumable',
    )
    .argument(
      '<paths...>',
      'files, directories (walked recursively), .jsonl files of documents or ingestion requests, - for JSONL on stdin; or alone, a database (postgres://…, mysql://…) or a repository (git+file:///PATH#REF)',
    )
    .option(
      '--cc-pair <id>',
      `cc pair the documents are attached to (default: the server's default pair, ${DEFAULT_CC_PAIR_ID})`,
      intArg(0),
    )
    .option(
      '--journal <file>',
      "record acknowledged documents in FILE, skipped by a re-run (default: the pair's journal, shared with kis sync)",
    )
    .option('--no-journal', 'keep no journal: send every document, even one already acknowledged')
    .option('--namespace <prefix>', 'put PREFIX before every document id (as kis sync --namespace)')
    .option(
      '--dry-run',
      "validate and extract everything, print each document's id and the counts by file kind and of what is ignored, by reason; send nothing (no server needed)",
    )
    .addHelpText('after', HELP_AFTER)
    .action(
      act((ctx, paths: string[], options: IngestOptions) =>
        runIngest(ctx, paths, options, interrupts),
      ),
    );
}

/** `kis ingest PATH…`: the run, reported as it goes; the exit code. */
export async function runIngest(
  ctx: Context,
  paths: string[],
  options: IngestOptions,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const source = options.source === undefined ? undefined : checkSource('--source', options.source);
  // a database or repository PATH is told apart before any path is looked up
  const located = locateSource(paths, { ...options, source });
  if (options.queue !== undefined) {
    // queue mode's producer is loaded for --queue only
    if (located !== undefined) {
      const { runQueuedSourceIngest } = await import('./queued-source.js');
      return runQueuedSourceIngest(ctx, located, { ...options, source }, interrupts);
    }
    const { runQueuedIngest } = await import('./queued.js');
    return runQueuedIngest(ctx, paths, options, interrupts);
  }
  if (options.connection !== undefined) {
    throw new UsageError('--connection: only with --queue (the name workers hold the database by)');
  }
  const { out, io } = ctx;
  const limits = runLimits(options);
  const baseDir = await resolveBaseDir(io.cwd, options.baseDir);
  const inputs = located ? undefined : await readInputs(paths, io);
  const dryRun = options.dryRun === true;
  const { client, baseUrl } = await connect(ctx, dryRun);
  await checkPair(client, options.ccPair, baseUrl, 'ingest');
  let run: IngestRun | undefined;
  // the sources' walk reports ignored files to the report, which asks them about kinds
  const report = new IngestReport(out, { dryRun, baseUrl, kindOf: (ref) => reading.kindOf(ref) });
  const onIgnored = (ref: string, reason: string) => {
    report.ignore(ref, reason);
    if (run) progress.update(report.progress(run.progress()));
  };
  // a file read with less than its kind asks (invalid MDX, read leniently), or a source's
  // reason to read everything: sent, and said
  const onWarning = (ref: string, message: string) =>
    progress.log(`${out.err.yellow('warning:')} ${ref}: ${message}`);
  // files are walked from here (two folders of the same name refused before anything is said)
  const files = inputs
    ? fileReading(inputs, io.stdin, {
        baseDir,
        include: options.include,
        exclude: options.exclude,
        source,
        idPrefix: options.namespace,
        describeUploadFailure: (error) => describeFailure(error, baseUrl).message,
        onIgnored,
        onWarning,
      })
    : undefined;
  const ccPair = dryRun ? options.ccPair : sendingPair(out, options.ccPair);
  const journal = dryRun
    ? undefined
    : await openRunJournal(journalFor({ journal: options.journal, ccPair, baseUrl }), io.cwd);
  const progress = createProgress(io, {
    label: dryRun ? 'checking' : 'ingesting',
    enabled: !out.mode.quiet,
    paint: out.err,
  });
  let reading: Reading;
  try {
    // a database or repository keeps its cursor or commit in the journal: opened on it
    reading =
      files ??
      (await sourceReading(out, located as SourceSpec, {
        state: journal?.journal,
        full: options.full === true,
        namespace: options.namespace,
        source,
        include: options.include,
        exclude: options.exclude,
        onWarning,
        onIgnored,
      }));
  } catch (error) {
    progress.stop();
    journal?.journal.close();
    throw error;
  }
  reading.count?.().then(
    (total) => progress.setTotal(total),
    () => undefined,
  );
  const abort = new AbortController();
  run = client.ingestMany(reading.items(), {
    ...limits,
    dryRun,
    signal: abort.signal,
    onProgress: (p) => progress.update(report.progress(p)),
    ...(ccPair === undefined ? {} : { ccPairId: ccPair }),
    ...(journal ? { journal: journal.journal } : {}),
  });
  const started = run;
  let ended: { summary: IngestSummary; interrupted: boolean };
  try {
    ended = await reading.end(
      () => followRun(started, { report, progress, abort, interrupts }),
      dryRun,
    );
  } finally {
    // after the source recorded its cursor or commit there, which needs it open
    journal?.journal.close();
  }
  const { summary, interrupted } = ended;
  report.summary(summary, { interrupted, journalPath: journal?.path, ccPair });
  return exitCode(out, summary, {
    interrupted,
    baseUrl,
    journal: journal && (typeof options.journal === 'string' ? options.journal : journal.path),
  });
}

/**
 * Reports the results as they come until the run ends (Ctrl-C stops it, a second one aborts the
 * requests in flight), then closes the progress.
 */
async function followRun(
  run: IngestRun,
  on: {
    report: IngestReport;
    progress: ProgressReporter;
    abort: AbortController;
    interrupts: InterruptSource;
  },
): Promise<{ summary: IngestSummary; interrupted: boolean }> {
  const { report, progress } = on;
  const interruption = onInterrupts(on.interrupts, {
    first: () => {
      progress.log(
        'interrupted: finishing the requests in flight (press Ctrl-C again to abort them)',
      );
      run.stop();
    },
    again: () => on.abort.abort(),
  });
  let summary: IngestSummary;
  try {
    for await (const result of run) report.result(result);
    summary = await run.summary;
  } finally {
    interruption.off();
    progress.stop();
  }
  return { summary, interrupted: interruption.count() > 0 };
}

/**
 * 3 when the client stopped the run (with the reason on one line), 130 when interrupted, 1 when
 * some documents failed, else 0.
 */
function exitCode(
  out: Output,
  summary: IngestSummary,
  end: {
    interrupted: boolean;
    baseUrl: string | undefined;
    /** `--journal FILE` as given, or the pair's journal; undefined when none is kept. */
    journal: string | undefined;
  },
): ExitCodeValue {
  if (summary.stopped) {
    out.error(stopMessage(summary, end.baseUrl));
    return ExitCode.Fatal;
  }
  if (end.interrupted) {
    out.warn(
      end.journal !== undefined
        ? `interrupted; run the same command again to resume (its journal, ${end.journal}, skips what was stored)`
        : 'interrupted; run again without --no-journal to make runs resumable (documents already sent are updated, not duplicated)',
    );
    return ExitCode.Interrupted;
  }
  return summary.failed > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
}
