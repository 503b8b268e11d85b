/**
 * Which queue a command works on: `--queue redis://HOST:PORT/DB` (or `KIS_QUEUE` for `kis worker`
 * and `kis queue …`) and `--queue-name`, checked here so a typo fails with its own message. A
 * password in the URL joins the secrets: it is never printed.
 */
import type { Command } from 'commander';
import type { Context } from './context.js';
import { CliError, ExitCode, UsageError } from './errors.js';

/** The flags {@link addQueueTarget} adds. */
export interface QueueTargetFlags {
  queue?: string;
  queueName?: string;
}

/** What `@kis/queue`'s functions take to find the queue. */
export interface QueueTarget {
  connection: string;
  queue?: string;
}

const QUEUE_NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** `--queue` and `--queue-name`, for commands that always work on a queue. */
export function addQueueTarget(command: Command): Command {
  return command
    .option(
      '--queue <url>',
      'Redis holding the queue, e.g. redis://127.0.0.1:6379/0 (env KIS_QUEUE; redis://:PASSWORD@HOST… is never printed)',
    )
    .option('--queue-name <name>', 'the queue in that Redis (default kis-ingest)');
}

/** A Redis URL with its password hidden, for messages. */
export function shownQueueUrl(url: string): string {
  return url.replace(/^(\w+:\/\/)([^@/]*)@/, (_, scheme: string) => `${scheme}***@`);
}

/**
 * The queue from the flags (and `KIS_QUEUE` when `fromEnv`); usage errors for a missing or bad
 * URL or name.
 */
export function queueTarget(
  ctx: Context,
  flags: QueueTargetFlags,
  options: { fromEnv: boolean },
): QueueTarget {
  const env = ctx.io.env.KIS_QUEUE?.trim();
  const raw = flags.queue ?? (options.fromEnv && env ? env : undefined);
  const from = flags.queue !== undefined ? '--queue' : 'KIS_QUEUE';
  if (raw === undefined || raw.trim() === '') {
    throw new UsageError(
      options.fromEnv
        ? 'missing queue: pass --queue redis://HOST:PORT/DB or set KIS_QUEUE'
        : '--queue: expected a Redis URL such as redis://127.0.0.1:6379/0',
    );
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(
      `${from}: "${shownQueueUrl(raw)}" is not a URL; expected a Redis URL such as redis://127.0.0.1:6379/0`,
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new UsageError(
      `${from}: "${shownQueueUrl(raw)}" must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379/0`,
    );
  }
  if (url.password) ctx.secrets.add(decodeURIComponent(url.password));
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) {
    throw new UsageError(
      `${from}: "${shownQueueUrl(raw)}": the path must be a database number such as /0`,
    );
  }
  if (flags.queueName !== undefined && !QUEUE_NAME.test(flags.queueName)) {
    throw new UsageError(
      `--queue-name: expected 1-100 letters, digits, ".", "_" or "-", got "${flags.queueName}"`,
    );
  }
  return {
    connection: raw.trim(),
    ...(flags.queueName === undefined ? {} : { queue: flags.queueName }),
  };
}

/**
 * Runs a call of `@kis/queue`: its usage errors become the CLI's (exit 2), and a Redis that does
 * not answer stops the command (exit 3) with the library's one line.
 */
export async function queueCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const name = (error as Error)?.name;
    const message = String((error as Error)?.message ?? error);
    if (name === 'QueueUsageError') throw new UsageError(message);
    if (message.startsWith('cannot reach Redis')) throw new CliError(message, ExitCode.Fatal);
    throw error;
  }
}
