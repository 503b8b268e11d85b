/**
 * Global limits of a queue, kept by BullMQ in Redis and obeyed by every worker (README,
 * "Limits"):
 *
 * - `maxInFlight`: BullMQ's global concurrency. A worker sends the documents of one job one at a
 *   time, so jobs active across the queue = requests in flight to the server, at most.
 * - `rate`: BullMQ's global rate limit counts job starts. With a rate, jobs hold one document
 *   each (enqueue reads the queue's rate), so job starts per second = documents sent per second.
 *   The rate is cut into short windows (`rateWindow`) so that no calendar second gets the end of
 *   one burst and the start of the next.
 */
import type { Queue } from 'bullmq';
import type { QueueTarget } from './connection.js';
import { QueueUsageError } from './errors.js';
import { withQueue } from './session.js';

const UNITS: Record<string, number> = { s: 1, sec: 1, m: 60, min: 60, h: 3600 };

/** Documents per second from `50/s`, `3000/min`, `100000/h` or a bare number (per second). */
export function parseRate(rate: string | number, field = 'rate'): number {
  let perSecond: number;
  if (typeof rate === 'number') perSecond = rate;
  else {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*(s|sec|m|min|h))?\s*$/.exec(rate);
    if (!match) {
      throw new QueueUsageError(
        `${field} must be documents per second, minute or hour such as 50/s, 3000/min or 100000/h (got ${JSON.stringify(rate)})`,
      );
    }
    perSecond = Number(match[1]) / (UNITS[match[2] ?? 's'] as number);
  }
  if (!Number.isFinite(perSecond) || perSecond <= 0) {
    throw new QueueUsageError(`${field} must be above 0 (got ${JSON.stringify(rate)})`);
  }
  return perSecond;
}

/** The longest window a rate is cut into. */
const WINDOW_MS = 20;

/**
 * BullMQ's `{ max, duration }` for a rate: windows of about 20 ms (fewer, longer ones for slow
 * rates), never above the rate. A window opens at its first job start, so windows are at least
 * `duration` apart and a second holds at most `rate` starts.
 */
export function rateWindow(perSecond: number): { max: number; duration: number } {
  const max = Math.max(1, Math.floor((perSecond * WINDOW_MS) / 1000));
  return { max, duration: Math.ceil((1000 * max) / perSecond) };
}

/** The rate a `{ max, duration }` window gives, in documents per second. */
export function windowRate(window: { max: number; duration: number }): number {
  return (window.max * 1000) / window.duration;
}

export interface QueueLimits {
  /**
   * Most requests in flight to the server from all workers together (BullMQ global concurrency:
   * each active job has at most one document on the wire). `null` removes the ceiling.
   */
  maxInFlight?: number | null | undefined;
  /**
   * Most documents sent per second by all workers together (`50/s`, `3000/min`): jobs enqueued
   * while a rate is set hold one document each. `null` removes the rate.
   */
  rate?: string | number | null | undefined;
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

/** Sets (or, with `null`, removes) a queue's global limits; absent ones are left as they are. */
export async function applyLimits(queue: Queue, limits: QueueLimits): Promise<void> {
  checkLimits(limits);
  if (limits.maxInFlight === null) await queue.removeGlobalConcurrency();
  else if (limits.maxInFlight !== undefined) await queue.setGlobalConcurrency(limits.maxInFlight);
  if (limits.rate === null) await queue.removeGlobalRateLimit();
  else if (limits.rate !== undefined) {
    const { max, duration } = rateWindow(parseRate(limits.rate));
    await queue.setGlobalRateLimit(max, duration);
  }
}

/** A queue's limits now: `maxInFlight` and the rate in documents per second (null: none). */
export async function readLimits(
  queue: Queue,
): Promise<{ maxInFlight: number | null; ratePerSec: number | null }> {
  const [concurrency, rate] = await Promise.all([
    queue.getGlobalConcurrency(),
    queue.getGlobalRateLimit(),
  ]);
  return {
    maxInFlight: concurrency ?? null,
    ratePerSec: rate ? Math.round(windowRate(rate) * 1000) / 1000 : null,
  };
}

/**
 * Sets a queue's global limits from anywhere (`kis queue limits`): they hold for every worker,
 * started before or after. Set a rate before enqueueing: jobs then hold one document each.
 */
export async function setQueueLimits(
  options: QueueTarget & QueueLimits,
): Promise<{ maxInFlight: number | null; ratePerSec: number | null }> {
  checkLimits(options);
  return withQueue(options, async ({ queue }) => {
    await applyLimits(queue, options);
    return readLimits(queue);
  });
}
