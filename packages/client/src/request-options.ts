/** Per-call options of every resource method and workflow, and what retries look like. */
import type { AbortRegistry } from './internal/abort.js';

/** Per-request options accepted by every resource method and workflow. */
export interface RequestOptions {
  /** Cancels the call (every attempt and every backoff wait). */
  signal?: AbortSignal | undefined;
  /** Time-out of each attempt in ms (the whole answer, body included, must arrive within it). */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt (0 disables retrying). */
  maxRetries?: number | undefined;
  /** Extra request headers (an `authorization` header here is ignored). */
  headers?: Record<string, string> | undefined;
}

/** What a retry looks like to observers (logs, bulk ingestion's throttle). */
export interface RetryEvent {
  /** 1 for the first retry. */
  retry: number;
  /** Status of the answer that caused the retry, if any. */
  status?: number | undefined;
  /** Error kind when the attempt failed without an answer. */
  error?: 'connection' | 'timeout' | undefined;
  delayMs: number;
}

/** Internal per-call controls (not part of the public option type). */
export interface CallControl extends RequestOptions {
  /**
   * `unsafe`: the request is not idempotent; retry only when the server surely did not act on it
   * (408/429/503 answers, connection refused). Default `idempotent`.
   */
  retryMode?: 'idempotent' | 'unsafe' | undefined;
  /** Sentence added to errors of an unsafe request that failed in a way that may have acted. */
  unsafeHint?: string | undefined;
  /** Called before each retry's wait. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** Called with the status of every answer (including those retried). */
  onStatus?: ((status: number) => void) | undefined;
  /**
   * Cancellation shared by many requests (bulk ingestion): attempts register their abort here
   * instead of adding a listener to one signal per request. Its signal also ends backoff waits.
   */
  registry?: AbortRegistry | undefined;
}
