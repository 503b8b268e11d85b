/**
 * Queue mode's flags on `kis ingest` and `kis sync` (`--queue` and what goes with it), and the
 * check that a command line does not mix them with what only local runs or workers read.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { intArg } from '../arg-parsers.js';
import { UsageError } from '../errors.js';
import { EXAMPLES, wrap } from '../help-text.js';

/** The values of the flags {@link addQueueOptions} adds. */
export interface QueueFlags {
  queue?: string;
  queueName?: string;
  root?: string;
  wait?: boolean;
  batchSize?: number;
  /** `--rate`: `50/s`, `3000/min`, or `none`. */
  rate?: string;
  /** `--max-in-flight`: a count, or `none`. */
  maxInFlight?: number | 'none';
  maxWaiting?: number;
}

/** A count, or `none`: a queue limit to set or remove (commander reads a null as no value). */
export function limitArg(value: string): number | 'none' {
  if (value.trim().toLowerCase() === 'none') return 'none';
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) {
    throw new InvalidArgumentError('expected a whole number of at least 1, or none.');
  }
  return Number(value);
}

/** A rate (`50/s`, `3000/min`, `100000/h`) or `none`; @kis/queue reads it (parseRate). */
export function rateArg(value: string): string {
  if (value.trim().toLowerCase() === 'none') return 'none';
  if (
    !/^\s*\d+(\.\d+)?\s*(\/\s*(s|sec|m|min|h))?\s*$/.test(value) ||
    Number.parseFloat(value) <= 0
  ) {
    throw new InvalidArgumentError(
      'expected requests per second, minute or hour, e.g. 50/s, 3000/min, or none.',
    );
  }
  return value.trim();
}

/** Flags that only mean something with `--queue`, by their option names. */
const QUEUE_ONLY = ['root', 'wait', 'batchSize', 'rate', 'maxInFlight', 'maxWaiting', 'queueName'];

/** Flags of local runs that workers read instead (`kis worker` takes them). */
const WORKER_SIDE = ['concurrency', 'minConcurrency', 'fixedConcurrency', 'retryFor', 'maxOutage'];

/** Flags of local runs that mean nothing in queue mode, and why. */
const LOCAL_ONLY: Record<string, string> = {
  dryRun: 'a dry run without --queue checks the same documents',
  watch: 'start kis sync --queue again when the paths change',
};

const HELP_AFTER = `Queue mode (--queue):
${wrap(
  `Plans as a local run does (the same ids; kis sync: the same plan), then enqueues jobs that name
the documents (files by their path under --root, byte ranges of JSONL files) in the Redis at
--queue, for any number of \`kis worker\` processes on any machines that mount --root; prints the
run id and exits, or with --wait shows the run's progress until it ends. Workers take the
concurrency, retry and outage flags; --rate and --max-in-flight hold per request across all of
them. With --cc-pair the pair's journal is kept as in a local run: files it holds unchanged are
not enqueued, and what the workers store is written to it (while --wait runs, or at the next
ingest or sync of the pair).`,
)}
${EXAMPLES([
  'kis ingest ./docs --cc-pair 2 --queue redis://127.0.0.1:6379/0',
  'kis ingest /mnt/corpus --cc-pair 2 --queue redis://queue:6379/0 --root /mnt/corpus --wait',
  'kis ingest export.jsonl --queue redis://127.0.0.1:6379/0 --rate 50/s --max-in-flight 16',
])}`;

/** Adds the queue mode flags to `kis ingest` or `kis sync`, and their check before the action. */
export function addQueueOptions(command: Command): Command {
  return (
    command
      .option(
        '--queue <url>',
        'queue mode: enqueue jobs in the Redis at URL (redis://HOST:PORT/DB) for `kis worker` processes instead of sending from here',
      )
      .option(
        '--root <dir>',
        'with --queue: the folder every worker mounts; jobs name files by their path under it (default: .)',
      )
      .option(
        '--wait',
        "with --queue: show the run's progress until it ends (exit 0 all stored, 1 some failed, 3 stopped)",
      )
      .option(
        '--batch-size <n>',
        'with --queue: documents per job (default 10 with files, else 50)',
        intArg(1, 10_000),
      )
      .option(
        '--rate <rate>',
        "with --queue: set the queue's rate for all workers, e.g. 50/s or 3000/min (none removes it)",
        rateArg,
      )
      .option(
        '--max-in-flight <n>',
        "with --queue: set the queue's ceiling of requests in flight for all workers (none removes it)",
        limitArg,
      )
      .option(
        '--max-waiting <jobs>',
        'with --queue: pause enqueueing while the queue holds this many jobs waiting (bounds Redis memory)',
        intArg(1),
      )
      .option('--queue-name <name>', 'with --queue: the queue in that Redis (default kis-ingest)')
      // after the command's own help, which is added later
      .addHelpText('afterAll', HELP_AFTER)
      .hook('preAction', (_parent, action) => checkQueueFlags(action))
  );
}

/** `--flag-name` of an option name (`maxInFlight` → `--max-in-flight`). */
const flagOf = (name: string) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Refuses queue flags without `--queue`, and flags of local runs or workers with it. */
function checkQueueFlags(command: Command): void {
  const given = (name: string) => {
    const source = command.getOptionValueSource(name);
    return source === 'cli' || source === 'env';
  };
  const name = command.name();
  if (command.getOptionValue('queue') === undefined) {
    const stray = QUEUE_ONLY.find(given);
    if (stray) throw new UsageError(`${flagOf(stray)}: only with --queue (queue mode)`);
    return;
  }
  const workerSide = WORKER_SIDE.find(given);
  if (workerSide) {
    throw new UsageError(
      `${flagOf(workerSide)}: with --queue, workers send: give it to them (kis worker ${flagOf(workerSide)} …)`,
    );
  }
  for (const [option, why] of Object.entries(LOCAL_ONLY)) {
    if (option === 'dryRun' && name === 'sync') continue;
    if (given(option)) throw new UsageError(`${flagOf(option)}: not with --queue (${why})`);
  }
}
