/**
 * A worker's settings: `startWorker`'s options checked, with their defaults, before anything
 * connects (README, "Workers").
 */
import type { Logger } from '@kis/client';
import { describeSqlConnection } from '@kis/node';
import { checkConnection, queueNames } from '../connection.js';
import { QueueUsageError } from '../errors.js';
import { checkLimits } from '../limits.js';
import { checkRoot } from '../plan/files.js';
import type { StartWorkerOptions } from './options.js';

export interface WorkerSettings {
  queue: string;
  prefix: string;
  name: string;
  root: string | undefined;
  connections: Readonly<Record<string, string>>;
  concurrency: number;
  lockDuration: number;
  stalledInterval: number;
  maxStalledCount: number;
  /** How long a request counts against the queue's ceiling at most: its time-out and a margin. */
  leaseMs: number;
  log: Logger;
}

/** The client's time-out per attempt when neither the worker nor the client names one. */
const CLIENT_TIMEOUT_MS = 120_000;
/** Added to a request's time-out for its lease under the ceiling. */
const LEASE_MARGIN_MS = 30_000;

function positive(value: number | undefined, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new QueueUsageError(`${field} must be above 0 (got ${JSON.stringify(value)})`);
  }
  return value;
}

function wholePositive(value: number | undefined, field: string, fallback: number): number {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
    throw new QueueUsageError(
      `${field} must be a whole number of at least 1 (got ${JSON.stringify(value)})`,
    );
  }
  return value ?? fallback;
}

/** SQL connections by name: strings, checked for their scheme (never echoed: they hold passwords). */
function checkConnections(
  connections: StartWorkerOptions['connections'],
): Readonly<Record<string, string>> {
  if (connections === undefined) return {};
  if (connections === null || typeof connections !== 'object') {
    throw new QueueUsageError(
      'connections must map names to connection strings: { crm: "postgres://…" }',
    );
  }
  for (const [name, value] of Object.entries(connections)) {
    try {
      describeSqlConnection(value);
    } catch (error) {
      throw new QueueUsageError(`connections.${name}: ${(error as Error).message}`);
    }
  }
  return { ...connections };
}

export function workerSettings(options: StartWorkerOptions): WorkerSettings {
  const { queue, prefix } = queueNames(options);
  checkConnection(options.connection);
  checkLimits(options);
  if (options.kis === null || typeof options.kis !== 'object') {
    throw new QueueUsageError('kis must give the server: { baseUrl, apiKey }');
  }
  const timeoutMs = positive(
    options.timeoutMs,
    'timeoutMs',
    options.kis.timeoutMs ?? CLIENT_TIMEOUT_MS,
  );
  return {
    queue,
    prefix,
    name: options.name ?? `kis-worker-${process.pid}`,
    root: options.root === undefined ? undefined : checkRoot(options.root),
    connections: checkConnections(options.connections),
    concurrency: wholePositive(options.concurrency, 'concurrency', 8),
    lockDuration: positive(options.lockDurationMs, 'lockDurationMs', 30_000),
    stalledInterval: positive(options.stalledIntervalMs, 'stalledIntervalMs', 30_000),
    maxStalledCount: wholePositive(options.maxStalledCount, 'maxStalledCount', 5),
    leaseMs: timeoutMs + LEASE_MARGIN_MS,
    log: options.logger ?? options.kis.logger ?? console,
  };
}
