/**
 * What a bulk run does after one attempt at a document (README, "Bulk ingestion: retries and
 * outages"): a failure is final only when the retry table says retrying cannot help (an ingestion
 * is an upsert by id: `worthRetrying`) or when the document's retry budget is spent; everything
 * else is retried after the server's `Retry-After` or an exponential backoff capped at 60 s.
 */
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  HtmlResponseError,
  type KisError,
  RateLimitError,
} from '../../errors.js';
import { backoffDelayMs, MAX_RETRY_AFTER_MS, retryAfterMs } from '../backoff.js';
import { type AttemptEnd, meansLoad, worthRetrying } from '../retry-table.js';
import { errorOf } from './error-of.js';

/** Defaults of a bulk run, sized for servers that index inside the request. */
export const BULK_DEFAULTS = Object.freeze({
  /** How long a document may be retried, not counting outage pauses: 10 minutes. */
  retryForMs: 10 * 60_000,
  /**
   * First backoff wait: short, as the concurrency limit (not the wait) protects a loaded server,
   * and random faults should cost a document a moment (README, "Retry until stored").
   */
  initialDelayMs: 100,
  /** Longest backoff wait. */
  maxDelayMs: MAX_RETRY_AFTER_MS,
});

/** How an attempt ended, as the run reads it. */
export type Outcome =
  | { kind: 'final'; error: KisError }
  | { kind: 'aborted'; error: KisError }
  /** `load`: the server refused for load (429, 503, 504, a time-out); the limiter hears it. */
  | { kind: 'retry'; error: KisError; load: boolean; serverDelayMs: number | undefined };

/** Reads a failed attempt's error. */
export function classify(err: unknown): Outcome {
  const error = errorOf(err);
  // read before the checks below: the classes' guards narrow `error` structurally
  const status = error.status;
  if (APIUserAbortError.isInstance(error)) return { kind: 'aborted', error };
  const timeout = APITimeoutError.isInstance(error);
  if (timeout || APIConnectionError.isInstance(error)) {
    const end: AttemptEnd = { failure: timeout ? 'timeout' : 'connection' };
    return { kind: 'retry', error, load: meansLoad(end), serverDelayMs: undefined };
  }
  // an HTML page is never the API's answer, whatever its status
  if (HtmlResponseError.isInstance(error) || status === undefined) return { kind: 'final', error };
  const end = { status };
  if (!worthRetrying(end)) return { kind: 'final', error };
  return { kind: 'retry', error, load: meansLoad(end), serverDelayMs: serverDelay(error) };
}

function serverDelay(error: KisError): number | undefined {
  if (RateLimitError.isInstance(error) && error.retryAfterMs !== undefined)
    return error.retryAfterMs;
  if (!APIError.isInstance(error) || error.headers === undefined) return undefined;
  const headers = error.headers;
  return retryAfterMs({ get: (name) => headers[name] ?? null });
}

/**
 * Retries at the first wait before the backoff grows: under random faults (15 % of calls) a
 * document fails 4 times in a row once in 1,500 and would otherwise hold the end of a run.
 */
export const FLAT_RETRIES = 4;

/** The wait before retry number `retry` (1 for the first): the server's, else a backoff. */
export function retryDelayMs(
  retry: number,
  serverDelayMs: number | undefined,
  options: { initialDelayMs: number; maxDelayMs: number },
  random: () => number = Math.random,
): number {
  return serverDelayMs ?? backoffDelayMs(Math.max(1, retry - FLAT_RETRIES + 1), options, random);
}
