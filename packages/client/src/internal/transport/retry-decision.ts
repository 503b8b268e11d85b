/**
 * After an attempt: whether to try again and after how long (the retry table, the server's
 * `Retry-After`, else a backoff), or the error to end the call with.
 */
import type { KisError } from '../../errors.js';
import type { RetryEvent } from '../../request-options.js';
import { backoffDelayMs, retryAfterMs } from '../backoff.js';
import type { Attempted } from '../http.js';
import { worthRetrying, worthRetryingOnce } from '../retry-table.js';
import type { PreparedCall, TransportSetup } from './setup.js';

/** The wait before the next attempt, or undefined when the answer or failure is final. */
export function nextRetry(
  setup: TransportSetup,
  call: PreparedCall,
  result: Attempted,
  retry: number,
  maxRetries: number,
): RetryEvent | undefined {
  const worth = call.control.retryMode === 'unsafe' ? worthRetryingOnce : worthRetrying;
  const backoff = () => backoffDelayMs(retry + 1, setup.backoff, setup.random);
  const response = result.response;
  if (response) {
    const status = response.status;
    if (status >= 200 && status < 300) return undefined;
    if (retry >= maxRetries || !worth({ status })) return undefined;
    return { retry: retry + 1, status, delayMs: retryAfterMs(response.headers) ?? backoff() };
  }
  if (result.kind === 'abort' || retry >= maxRetries) return undefined;
  const failure = result.kind === 'timeout' ? 'timeout' : 'connection';
  if (!worth({ failure, preSend: result.preSend })) return undefined;
  return { retry: retry + 1, error: failure, delayMs: backoff() };
}

/** The error of an attempt that got no answer, with how many attempts were made. */
export function finalError(call: PreparedCall, result: Attempted, retry: number): KisError {
  const error = result.error as KisError;
  const { control } = call;
  const unsafe = control.retryMode === 'unsafe' && !result.preSend && control.unsafeHint;
  const note = `${retry > 0 ? ` (after ${retry + 1} attempts)` : ''}${unsafe ? ` ${control.unsafeHint}` : ''}`;
  if (result.kind === 'abort' || !note) return error;
  const Ctor = error.constructor as new (
    m: string,
    i: { cause?: unknown; code?: string | undefined },
  ) => KisError;
  const cause = (error as { cause?: unknown }).cause;
  return new Ctor(error.message + note, { cause, code: error.code });
}
