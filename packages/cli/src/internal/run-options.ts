/**
 * The options `kis ingest` and `kis sync` share: what to read, and the run's limits. Each command
 * adds its own on top (`--cc-pair`, `--journal`, `--dry-run`, …).
 */
import type { IngestManyOptions } from '@kis/client';
import { type Command, Option } from 'commander';
import { collect, durationArg, intArg } from './arg-parsers.js';
import { UsageError } from './errors.js';

/** The values of the flags {@link addRunOptions} adds, as commander parses them. */
export interface RunFlags {
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
  include: string[];
  exclude: string[];
  baseDir?: string;
}

/** The flags that say what to read and how ids are made: one definition, each command adds them. */
const READ_OPTIONS = {
  source: () =>
    new Option(
      '--source <source>',
      'DocumentSource of file documents (default file); also fills in JSONL documents without a source',
    ),
  include: () =>
    new Option('--include <glob>', 'only files matching GLOB (repeatable)')
      .argParser(collect)
      .default([], 'all supported files'),
  exclude: () =>
    new Option('--exclude <glob>', 'leave out files matching GLOB (repeatable)')
      .argParser(collect)
      .default([], 'none'),
  baseDir: () =>
    new Option(
      '--base-dir <dir>',
      "make document ids paths relative to DIR (default: a folder's files are <folder name>/<path inside>, wherever kis runs); --base-dir . is the rule of earlier versions",
    ),
};

/** What {@link addReadOptions} adds, as commander parses it. */
export type ReadFlags = Pick<RunFlags, 'source' | 'include' | 'exclude' | 'baseDir'>;

/** The flags that read PATHs as `kis ingest` does (`kis verify`: the same files, the same ids). */
export function addReadOptions(command: Command): Command {
  return command
    .addOption(READ_OPTIONS.source())
    .addOption(READ_OPTIONS.include())
    .addOption(READ_OPTIONS.exclude())
    .addOption(READ_OPTIONS.baseDir());
}

/** Adds the shared flags to `command` (before the command's own, as `--help` lists them). */
export function addRunOptions(command: Command): Command {
  return command
    .addOption(READ_OPTIONS.source())
    .option(
      '-c, --concurrency <n>',
      'requests in flight: adaptive up to N (backing off when the server queues or refuses)',
      intArg(1, 256),
      64,
    )
    .option(
      '--min-concurrency <n>',
      'the fewest requests in flight it adapts down to (default 1)',
      intArg(1, 256),
    )
    .option('--fixed-concurrency', 'keep N requests in flight (--concurrency), without adapting')
    .option(
      '--retry-for <duration>',
      'how long one document is retried (not counting outage pauses), e.g. 90s, 10m, 1h (default 10m)',
      durationArg,
    )
    .option(
      '--max-outage <duration>',
      'how long the run pauses through an outage (nothing succeeding) before it stops (default 5m)',
      durationArg,
    )
    .addOption(READ_OPTIONS.include())
    .addOption(READ_OPTIONS.exclude())
    .addOption(READ_OPTIONS.baseDir());
}

/**
 * The run's limits from `--concurrency`, `--min-concurrency`, `--fixed-concurrency`, `--retry-for`
 * and `--max-outage` (usage errors for combinations that make no sense).
 */
export function runLimits(options: RunFlags): IngestManyOptions {
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
