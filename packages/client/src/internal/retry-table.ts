/**
 * Which failed attempts are worth another (README, "Retries"): one table, read by the transport
 * for single calls and by bulk runs for each document, so the two never disagree.
 */

/** How an attempt ended, as the table reads it: the answer's status, or no answer. */
export type AttemptEnd =
  | { status: number }
  | {
      /** No answer: the connection failed, or no answer came in time. */
      failure: 'connection' | 'timeout';
      /** The request surely never reached the server (the connection failed before sending). */
      preSend?: boolean | undefined;
    };

/** 4xx answers that a later attempt may get past: a time-out, a conflict, too many requests. */
const RETRYABLE_4XX: ReadonlySet<number> = new Set([408, 409, 429]);
/** Answers after which the server surely did not act: safe to repeat even a create. */
const NOT_ACTED: ReadonlySet<number> = new Set([408, 429, 503]);
/** Answers that say the server is loaded: a bulk run's concurrency limit backs off on them. */
const LOAD: ReadonlySet<number> = new Set([429, 503, 504]);

/**
 * Whether another attempt may help a request that can be repeated (a read, an upsert by id): the
 * retryable 4xx, every 5xx, connection failures and time-outs.
 */
export function worthRetrying(end: AttemptEnd): boolean {
  if ('failure' in end) return true;
  return RETRYABLE_4XX.has(end.status) || end.status >= 500;
}

/**
 * Whether another attempt may help a request that must not be applied twice (a create): only
 * when the server surely did not act on it.
 */
export function worthRetryingOnce(end: AttemptEnd): boolean {
  if ('failure' in end) return end.preSend === true;
  return NOT_ACTED.has(end.status);
}

/** Whether the end says the server is loaded (429, 503, 504, or no answer in time). */
export function meansLoad(end: AttemptEnd): boolean {
  if ('failure' in end) return end.failure === 'timeout';
  return LOAD.has(end.status);
}
