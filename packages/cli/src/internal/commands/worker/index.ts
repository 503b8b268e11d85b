/**
 * `kis worker --queue URL`: a queue mode worker (`@kis/queue`'s `startWorker`), as many as wanted
 * on any machines. It reads the base URL and API key as every command does (the key never goes
 * into Redis), takes jobs, sends their documents through the client's bulk engine, and on Ctrl-C
 * or SIGTERM finishes the requests on the wire, returns its jobs to the queue and exits 0.
 */
import { hostname } from 'node:os';
import type { QueueWorker, WorkerDocumentEvent, WorkerSummary } from '@kis/queue';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { durationArg, intArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue, oneLine } from '../../errors.js';
import { describeFailure } from '../../failure.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import type { InterruptSource } from '../../interrupts.js';
import { loadQueue } from '../../optional-queue.js';
import { formatRate } from '../../output.js';
import { queueLimits } from '../../queue-mode/enqueue.js';
import { limitArg, rateArg } from '../../queue-mode/options.js';
import { resolveRoot } from '../../queue-mode/sources.js';
import {
  addQueueTarget,
  type QueueTargetFlags,
  queueCall,
  queueTarget,
  shownQueueUrl,
} from '../../queue-target.js';
import { connectionArg, workerConnections } from './connections.js';

export interface WorkerFlags extends QueueTargetFlags {
  root?: string;
  concurrency: number;
  fixedConcurrency?: boolean;
  retryFor?: number;
  maxOutage?: number;
  maxInFlight?: number | 'none';
  rate?: string;
  name?: string;
  lockDuration?: number;
  stalledInterval?: number;
  /** `--connection NAME=ENV_VAR`, repeated. */
  connection?: string[];
}

/** How often a worker says how it is doing on stderr. */
const STATUS_EVERY_MS = 30_000;

const HELP_AFTER =
  EXAMPLES([
    'export KIS_BASE_URL=https://kis.example.com/api KIS_API_KEY=… KIS_QUEUE=redis://queue:6379/0',
    'kis worker --root /mnt/corpus',
    'kis worker --root /mnt/corpus --concurrency 16 --max-in-flight 64 --rate 50/s',
    'kis --json worker --queue redis://127.0.0.1:6379/0 --root .',
    'CRM_URL=postgres://kis:…@db:5432/crm kis worker --connection crm=CRM_URL',
  ]) +
  `
${wrap(
  `Takes jobs that \`kis ingest --queue\` and \`kis sync --queue\` enqueued and sends their documents:
files are read under --root (the folder the producer gave as --root, mounted here), JSONL
ranges and documents as the jobs name them. Start any number, on any machines. --max-in-flight
and --rate are the queue's: they hold across all workers, whichever set them last. An outage
pauses the worker (no job fails); a key the server refuses stops it (exit 3) and returns its
jobs. Ctrl-C or SIGTERM: requests on the wire finish and are recorded, the jobs go back to the
queue for other workers, exit 0; a worker killed outright loses nothing either: its jobs return
after --lock-duration plus --stalled-interval. Jobs of a database (kis ingest|sync postgres://…
--queue) name it, not its connection string: --connection NAME=ENV_VAR gives this worker the
database of that name, the connection string read from ENV_VAR here. A worker without the name
a job gives returns the job and stops (exit 2); a repository is read under --root.`,
)}
`;

export function workerCommand({ act, interrupts, command }: CommandEnv): Command {
  return addQueueTarget(command('worker'))
    .description(
      'queue mode: take jobs from a queue and send their documents (any number, on any machines); Ctrl-C returns its jobs',
    )
    .option(
      '--root <dir>',
      "where the jobs' file paths are read: the producer's --root, as mounted here (default: .)",
    )
    .option(
      '-c, --concurrency <n>',
      'jobs at once = the most requests this worker has in flight (adaptive up to N)',
      intArg(1, 256),
      8,
    )
    .option('--fixed-concurrency', 'keep N requests in flight (--concurrency), without adapting')
    .option(
      '--retry-for <duration>',
      'how long one document is retried (not counting outage pauses), e.g. 90s, 10m (default 10m)',
      durationArg,
    )
    .option(
      '--max-outage <duration>',
      'how long to wait through an outage before the worker stops (default: no limit)',
      durationArg,
    )
    .option(
      '--max-in-flight <n>',
      "set the queue's ceiling of requests in flight, for all workers together (none removes it)",
      limitArg,
    )
    .option(
      '--rate <rate>',
      "set the queue's rate for all workers together, e.g. 50/s or 3000/min (none removes it)",
      rateArg,
    )
    .option('--name <name>', 'shown in the dashboard (default kis-worker-<host>-<pid>)')
    .option(
      '--lock-duration <duration>',
      "a job's lock, renewed while it runs: a dead worker's jobs are free after it (default 30s)",
      durationArg,
    )
    .option(
      '--stalled-interval <duration>',
      'how often workers look for jobs whose lock expired (default 30s)',
      durationArg,
    )
    .option(
      '--connection <name=env_var>',
      'a database SQL jobs name, its connection string read from the environment variable ENV_VAR (repeatable)',
      connectionArg,
    )
    .addHelpText('after', HELP_AFTER)
    .action(act((ctx, options: WorkerFlags) => runWorker(ctx, options, interrupts)));
}

/** The worker's name: `--name`, else host and process (several per machine stay apart). */
function workerName(options: WorkerFlags): string {
  return options.name ?? `kis-worker-${hostname().replace(/[^A-Za-z0-9._-]/g, '-')}-${process.pid}`;
}

export async function runWorker(
  ctx: Context,
  options: WorkerFlags,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const { out, io } = ctx;
  const q = await loadQueue('kis worker');
  const target = queueTarget(ctx, options, { fromEnv: true });
  const connection = await ctx.connection();
  const root = await resolveRoot(io.cwd, options.root);
  const connections = workerConnections(options.connection, io.env, ctx.secrets);
  // proves Redis answers before anything waits on it, and sets the queue's limits
  const limits = await queueCall(() => q.setQueueLimits({ ...target, ...queueLimits(options) }));
  const name = workerName(options);
  const worker = await queueCall(() =>
    q.startWorker({
      ...target,
      kis: ctx.clientOptions(connection),
      root,
      ...(connections === undefined ? {} : { connections }),
      name,
      concurrency: options.concurrency,
      adaptive: options.fixedConcurrency !== true,
      retryForMs: options.retryFor,
      maxOutageMs: options.maxOutage,
      lockDurationMs: options.lockDuration,
      stalledIntervalMs: options.stalledInterval,
      logger: {
        error: () => undefined, // the reason the worker stops is said once, below
        warn: (m) => out.warn(oneLine(m)),
        info: (m) => out.info(oneLine(m)),
        debug: (m) => out.debug(oneLine(m)),
      },
      onDocument: (event) => reportDocument(ctx, event),
    }),
  );
  const shownLimits = [
    limits.maxInFlight === null ? 'no ceiling' : `at most ${limits.maxInFlight} in flight`,
    limits.ratePerSec === null ? 'no rate' : `${formatRate(limits.ratePerSec)} across workers`,
  ].join(', ');
  out.result(
    {
      worker: {
        name: worker.name,
        queue: target.queue ?? 'kis-ingest',
        root,
        connections: Object.keys(connections ?? {}),
        concurrency: options.concurrency,
        max_in_flight: limits.maxInFlight,
        rate_per_sec: limits.ratePerSec,
      },
    },
    [
      `kis worker ${worker.name} taking jobs from queue ${target.queue ?? 'kis-ingest'} at ${shownQueueUrl(target.connection)}`,
      `  root: ${root}; concurrency ${options.concurrency}; queue limits: ${shownLimits}`,
      ...(connections === undefined
        ? []
        : [`  databases: ${Object.keys(connections).join(', ')} (--connection)`]),
      'Press Ctrl-C to stop (requests on the wire finish; the jobs go back to the queue).',
    ],
  );
  const status = setInterval(() => {
    const line = statusLine(worker);
    if (line !== undefined) out.info(line);
  }, STATUS_EVERY_MS);
  status.unref();
  try {
    return await untilStopped(ctx, worker, interrupts, connection.baseUrl);
  } finally {
    clearInterval(status);
  }
}

/** Every document's result: a JSON line; in text, failures as they happen (all with --verbose). */
function reportDocument(ctx: Context, event: WorkerDocumentEvent): void {
  const { out } = ctx;
  const ref = event.ref ?? `#${event.ordinal}`;
  out.result({
    run_id: event.runId,
    job_id: event.jobId,
    ref,
    status: event.status,
    ...(event.documentId ? { document_id: event.documentId } : {}),
    attempts: event.attempts,
    ...(event.reason ? { error: event.reason } : {}),
  });
  if (out.mode.json) return;
  if (event.status === 'failed') out.info(`failed ${ref}: ${event.reason ?? 'not stored'}`);
  else out.debug(`${event.status.padEnd(7)} ${ref}`);
}

/** How the worker is doing, while it has work: nothing when idle. */
export function statusLine(worker: Pick<QueueWorker, 'name' | 'progress'>): string | undefined {
  const p = worker.progress();
  if (p.activeJobs === 0 && p.inFlight === 0 && p.pausedSince === undefined) return undefined;
  return `worker ${worker.name}: ${p.created + p.updated} stored, ${p.failed} failed, ${p.skipped} skipped; ${p.activeJobs} job(s) active, ${p.inFlight} request(s) in flight${p.pausedSince ? '; paused through an outage' : ''}`;
}

/**
 * Runs until the worker stops by itself (exit 3, with why) or Ctrl-C/SIGTERM (graceful: exit 0);
 * a second Ctrl-C leaves at once (exit 130: its jobs return after their lock expires).
 */
async function untilStopped(
  ctx: Context,
  worker: QueueWorker,
  interrupts: InterruptSource,
  baseUrl: string,
): Promise<ExitCodeValue> {
  const { out } = ctx;
  let onSignal: (() => void) | undefined;
  const listener = () => onSignal?.();
  interrupts.on('SIGINT', listener);
  interrupts.on('SIGTERM', listener);
  try {
    const first = await new Promise<'signal' | WorkerSummary>((resolve) => {
      onSignal = () => resolve('signal');
      void worker.closed.then(resolve);
    });
    if (first !== 'signal') {
      printSummary(ctx, worker.name, first);
      const stop = first.stopped;
      // the worker lacks what a job needs (its files, its database): its flags are at fault
      if (stop?.reason === 'root' || stop?.reason === 'connection') {
        // the library's advice, in this command's flags
        const message = oneLine(stop.message).replace(
          /start it with connections: \{ (\S+): <connection string> \}/,
          'start it with --connection $1=ENV_VAR (ENV_VAR holding its connection string)',
        );
        out.error(`worker ${worker.name} stopped: ${message}`);
        return ExitCode.Usage;
      }
      if (stop) {
        const failure = stop.error ? describeFailure(stop.error, baseUrl) : undefined;
        out.error(
          `worker ${worker.name} stopped: ${failure?.fatal ? failure.message : oneLine(stop.message.replace(/^Stopped:\s*/, ''))}`,
        );
        return ExitCode.Fatal;
      }
      return ExitCode.Ok;
    }
    out.info(
      'stopping: finishing the requests on the wire; the jobs go back to the queue (Ctrl-C again to leave now)',
    );
    const ended = await new Promise<'again' | WorkerSummary>((resolve) => {
      onSignal = () => resolve('again');
      void worker.close().then(resolve);
    });
    if (ended === 'again') {
      out.warn("left at once: this worker's jobs go back to the queue once their lock expires");
      return ExitCode.Interrupted;
    }
    printSummary(ctx, worker.name, ended);
    return ExitCode.Ok;
  } finally {
    interrupts.off('SIGINT', listener);
    interrupts.off('SIGTERM', listener);
  }
}

function printSummary(ctx: Context, name: string, s: WorkerSummary): void {
  ctx.out.result(
    {
      summary: {
        worker: name,
        created: s.created,
        updated: s.updated,
        failed: s.failed,
        skipped: s.skipped,
        jobs_completed: s.jobsCompleted,
        jobs_failed: s.jobsFailed,
        jobs_returned: s.jobsReturned,
        overload_pauses: s.overloadPauses,
        ...(s.stopped ? { stopped: { reason: s.stopped.reason, message: s.stopped.message } } : {}),
      },
    },
    [
      `Worker ${name} stopped: ${s.created + s.updated} document(s) stored (${s.created} created, ${s.updated} updated), ${s.failed} failed, ${s.skipped} skipped`,
      `  jobs: ${s.jobsCompleted} completed, ${s.jobsFailed} failed, ${s.jobsReturned} returned to the queue; ${s.overloadPauses} overload pause(s)`,
    ],
  );
}
