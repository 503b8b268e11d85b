/**
 * Global limits of a queue (README, "Limits"), kept in Redis and held per request by every
 * worker (`worker/request-gate.ts`), whatever a job holds:
 *
 * - `maxInFlight`: requests on the wire to the server from all workers together;
 * - `rate`: requests started per second by all workers together, retries included.
 *
 * Set from anywhere (`kis queue limits`, `kis worker --rate`, a producer's `--rate`), before or
 * during a run: workers read them at each request while one is set, and twice a second otherwise.
 */
import type { QueueTarget } from './connection.js';
import { QueueUsageError } from './errors.js';
import { type QueueSession, withQueue } from './session.js';

const UNITS: Record<string, number> = { s: 1, sec: 1, m: 60, min: 60, h: 3600 };

/** Requests per second from `50/s`, `3000/min`, `100000/h` or a bare number (per second). */
export function parseRate(rate: string | number, field = 'rate'): number {
  let perSecond: number;
  if (typeof rate === 'number') perSecond = rate;
  else {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*(s|sec|m|min|h))?\s*$/.exec(rate);
    if (!match) {
      throw new QueueUsageError(
        `${field} must be requests per second, minute or hour such as 50/s, 3000/min or 100000/h (got ${JSON.stringify(rate)})`,
      );
    }
    perSecond = Number(match[1]) / (UNITS[match[2] ?? 's'] as number);
  }
  if (!Number.isFinite(perSecond) || perSecond <= 0) {
    throw new QueueUsageError(`${field} must be above 0 (got ${JSON.stringify(rate)})`);
  }
  return perSecond;
}

export interface QueueLimits {
  /** Most requests in flight to the server from all workers together. `null` removes it. */
  maxInFlight?: number | null | undefined;
  /**
   * Most requests started per second by all workers together (`50/s`, `3000/min`), retries
   * included. `null` removes it.
   */
  rate?: string | number | null | undefined;
}

/** A queue's limits in force: requests in flight, and requests per second (null: none). */
export interface LimitsInForce {
  maxInFlight: number | null;
  ratePerSec: number | null;
}

/** Checks limits before anything is changed. */
export function checkLimits(limits: QueueLimits): void {
  const { maxInFlight, rate } = limits;
  if (maxInFlight !== undefined && maxInFlight !== null) {
    if (!Number.isSafeInteger(maxInFlight) || maxInFlight < 1) {
      throw new QueueUsageError(
        `maxInFlight must be a whole number of at least 1 (got ${JSON.stringify(maxInFlight)})`,
      );
    }
  }
  if (rate !== undefined && rate !== null) parseRate(rate);
}

/** Sets (or, with `null`, removes) a queue's limits; absent ones are left as they are. */
export async function applyLimits(
  { queue, redis, store }: QueueSession,
  limits: QueueLimits,
): Promise<void> {
  checkLimits(limits);
  const key = store.keys.limits;
  const tx = redis.multi();
  if (limits.maxInFlight === null) tx.hdel(key, 'maxInFlight');
  else if (limits.maxInFlight !== undefined) tx.hset(key, 'maxInFlight', limits.maxInFlight);
  if (limits.rate === null) tx.hdel(key, 'ratePerSec');
  else if (limits.rate !== undefined) tx.hset(key, 'ratePerSec', parseRate(limits.rate));
  await tx.exec();
  // earlier versions held the limits with BullMQ's, per job: those would now limit twice
  await queue.removeGlobalConcurrency();
  await queue.removeGlobalRateLimit();
}

/** A queue's limits now. */
export async function readLimits({ redis, store }: QueueSession): Promise<LimitsInForce> {
  const [max, rate] = await redis.hmget(store.keys.limits, 'maxInFlight', 'ratePerSec');
  return {
    maxInFlight: max === null ? null : Number(max),
    ratePerSec: rate === null ? null : Math.round(Number(rate) * 1000) / 1000,
  };
}

/** Requests the workers started per second over the last `seconds` complete seconds. */
export async function recentRequestRate(
  { redis, store }: QueueSession,
  seconds = 10,
  now = Date.now(),
): Promise<number> {
  const current = Math.floor(now / 1000);
  const keys = Array.from({ length: seconds }, (_, i) => store.keys.sent(current - 1 - i));
  const values = await redis.mget(keys);
  const sent = values.reduce((sum, v) => sum + (v === null ? 0 : Number(v)), 0);
  return Math.round((sent / seconds) * 100) / 100;
}

/**
 * Sets a queue's limits from anywhere (`kis queue limits`): they hold for every worker, started
 * before or after, from its next request on.
 */
export async function setQueueLimits(options: QueueTarget & QueueLimits): Promise<LimitsInForce> {
  checkLimits(options);
  return withQueue(options, async (session) => {
    await applyLimits(session, options);
    return readLimits(session);
  });
}
