/**
 * What a bulk run does after one attempt at a document (README, "Bulk ingestion: retries and
 * outages"): a failure is final only when retrying cannot help (a 4xx other than 408, 409, 429)
 * or when the document's retry budget is spent; everything else is retried after the server's
 * `Retry-After` or an exponential backoff capped at 60 s.
 */
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  HtmlResponseError,
  KisError,
  RateLimitError,
} from '../../errors.js';
import { backoffDelayMs, MAX_RETRY_AFTER_MS, retryAfterMs } from '../backoff.js';

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

const RETRYABLE_4XX = new Set([408, 409, 429]);
const LOAD_STATUSES = new Set([429, 503, 504]);

/** Reads a failed attempt's error. */
export function classify(err: unknown): Outcome {
  const error = KisError.isInstance(err)
    ? err
    : new KisError(String((err as Error)?.message ?? err), { cause: err });
  // read before the checks below: the classes' guards narrow `error` structurally
  const status = error.status;
  if (APIUserAbortError.isInstance(error)) return { kind: 'aborted', error };
  if (APITimeoutError.isInstance(error)) {
    return { kind: 'retry', error, load: true, serverDelayMs: undefined };
  }
  if (APIConnectionError.isInstance(error)) {
    return { kind: 'retry', error, load: false, serverDelayMs: undefined };
  }
  if (HtmlResponseError.isInstance(error) || status === undefined) return { kind: 'final', error };
  if (status < 500 && !RETRYABLE_4XX.has(status)) return { kind: 'final', error };
  return {
    kind: 'retry',
    error,
    load: LOAD_STATUSES.has(status),
    serverDelayMs: serverDelay(error),
  };
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
