/**
 * Where the queue lives: a Redis URL (`redis://HOST:PORT/DB`) or ioredis options, and the queue's
 * name. BullMQ gets ioredis clients made here (its ESM build cannot load ioredis by itself), with
 * `maxRetriesPerRequest: null` as BullMQ requires: commands wait through a Redis restart instead
 * of failing.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { QueueUsageError } from './errors.js';

/** A Redis URL (`redis://[:password@]host[:port][/db]`, `rediss://` for TLS) or ioredis options. */
export type RedisConnection = string | RedisOptions;

/** The queue every function of this package works on. */
export interface QueueTarget {
  /** Redis holding the queue: a URL such as `redis://127.0.0.1:6379/0`, or ioredis options. */
  connection: RedisConnection;
  /** The queue's name (default `kis-ingest`): letters, digits, `.`, `_` and `-`. */
  queue?: string | undefined;
  /** BullMQ's key prefix (default `bull`). */
  prefix?: string | undefined;
}

export const DEFAULT_QUEUE = 'kis-ingest';
export const DEFAULT_PREFIX = 'bull';

const NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** The queue's name and prefix, checked. */
export function queueNames(target: QueueTarget): { queue: string; prefix: string } {
  const queue = target.queue ?? DEFAULT_QUEUE;
  const prefix = target.prefix ?? DEFAULT_PREFIX;
  if (!NAME.test(queue)) {
    throw new QueueUsageError(
      `queue must be 1-100 letters, digits, ".", "_" or "-" (got ${JSON.stringify(queue)})`,
    );
  }
  if (!NAME.test(prefix)) {
    throw new QueueUsageError(
      `prefix must be 1-100 letters, digits, ".", "_" or "-" (got ${JSON.stringify(prefix)})`,
    );
  }
  return { queue, prefix };
}

/** Checks a Redis URL's scheme, so a typo fails with its own message rather than a retry loop. */
export function checkConnection(connection: RedisConnection): void {
  if (typeof connection === 'string') {
    let url: URL;
    try {
      url = new URL(connection);
    } catch {
      throw new QueueUsageError(
        `connection must be a Redis URL such as redis://127.0.0.1:6379/0 (got ${JSON.stringify(redactUrl(connection))})`,
      );
    }
    if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
      throw new QueueUsageError(
        `connection must be a redis:// or rediss:// URL (got ${JSON.stringify(redactUrl(connection))})`,
      );
    }
    return;
  }
  if (connection === null || typeof connection !== 'object') {
    throw new QueueUsageError('connection must be a Redis URL or ioredis options');
  }
}

/**
 * A new ioredis client for BullMQ or for this package's own keys. `lazyConnect` is off: the first
 * command waits for the connection, and a Redis that is down is retried (with ioredis's backoff)
 * rather than failing the command.
 */
export function createRedis(connection: RedisConnection, name: string): Redis {
  checkConnection(connection);
  const common: RedisOptions = {
    maxRetriesPerRequest: null,
    connectionName: name,
    // a Redis that restarts comes back within seconds; never give up on it
    retryStrategy: (times) => Math.min(200 * times, 2_000),
  };
  return typeof connection === 'string'
    ? new Redis(connection, common)
    : new Redis({ ...connection, ...common });
}

/** A Redis URL with its password hidden, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/^(\w+:\/\/)([^@/]*)@/, (_, scheme: string) => `${scheme}***@`);
}

/** How a connection is named in messages (never with its password). */
export function describeConnection(connection: RedisConnection): string {
  if (typeof connection === 'string') return redactUrl(connection);
  const host = connection.host ?? '127.0.0.1';
  const port = connection.port ?? 6379;
  return `redis://${host}:${port}/${connection.db ?? 0}`;
}
