/** Retry timing: server hints (`retry-after-ms`, `Retry-After`) first, else exponential backoff. */

import type { AbortRegistry } from './abort.js';

export interface BackoffOptions {
  /** First backoff delay in ms (before jitter). Default 500. */
  initialDelayMs: number;
  /** Largest backoff delay in ms. Default 8000. */
  maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialDelayMs: 500, maxDelayMs: 8_000 };

/** Longest server-requested wait we honour; longer hints fall back to our own backoff. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The wait the server asked for, in ms, or undefined when it gave none (or an unusable one).
 * `retry-after-ms` (milliseconds, may be fractional) wins over `Retry-After` (seconds or an
 * HTTP date). Values outside 0–60 s are ignored.
 */
export function retryAfterMs(
  headers: Pick<Headers, 'get'>,
  now: number = Date.now(),
): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0 && n <= MAX_RETRY_AFTER_MS) return n;
  }
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return undefined;
  const trimmed = ra.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    const s = Number(trimmed) * 1000;
    return s <= MAX_RETRY_AFTER_MS ? s : undefined;
  }
  if (!/[a-z]/i.test(trimmed)) return undefined; // neither seconds nor an HTTP date
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  const wait = Math.max(0, at - now);
  return wait <= MAX_RETRY_AFTER_MS ? wait : undefined;
}

/**
 * Exponential backoff with jitter for the retry number `retry` (1 for the first retry):
 * `min(initial * 2^(retry-1), max)` reduced by up to 25 % at random, so clients that failed
 * together do not come back together.
 */
export function backoffDelayMs(
  retry: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const base = Math.min(options.initialDelayMs * 2 ** Math.max(0, retry - 1), options.maxDelayMs);
  return base * (1 - random() * 0.25);
}

/**
 * Resolve after `ms`, or reject with the signal's reason when it aborts first. With a `registry`
 * (bulk ingestion: many waits on one signal), the wait registers there instead of adding a
 * listener to the signal.
 */
export function sleep(ms: number, signal?: AbortSignal, registry?: AbortRegistry): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    let unregister = () => {};
    const timer = setTimeout(() => {
      unregister();
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    if (registry) unregister = registry.add(onAbort);
    else if (signal) {
      signal.addEventListener('abort', onAbort, { once: true });
      unregister = () => signal.removeEventListener('abort', onAbort);
    }
  });
}
