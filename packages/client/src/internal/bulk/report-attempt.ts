/** `IngestManyOptions.onAttempt` for a request that failed: what the caller is told of it. */
import { APIConnectionError, APITimeoutError, APIUserAbortError, KisError } from '../../errors.js';
import type { IngestAttempt } from '../../ingest.js';
import { classify } from './retry-policy.js';

/** Reports a failed request, unless it was cut short by the run (a cancel, a losing hedge). */
export function reportFailure(
  report: (attempt: IngestAttempt) => void,
  documentId: string,
  error: unknown,
  ms: number,
): void {
  if (APIUserAbortError.isInstance(error)) return;
  const attempt: IngestAttempt = { documentId, ms };
  if (APITimeoutError.isInstance(error)) attempt.error = 'timeout';
  else if (APIConnectionError.isInstance(error)) attempt.error = 'connection';
  else if (KisError.isInstance(error)) attempt.status = error.status;
  const outcome = classify(error);
  if (outcome.kind === 'retry' && outcome.serverDelayMs !== undefined) {
    attempt.retryAfterMs = outcome.serverDelayMs;
  }
  report(attempt);
}
