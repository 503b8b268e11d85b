// How the emulator's index attempts end, for users testing their monitoring: `succeed` (the
// default), `fail` (the attempt fails), `hang` (it stays `in_progress` until it is canceled or the
// outcome changes) or `errors` (it completes with a document error). The texts below are the
// emulator's own: they say the failure is simulated.
import type { IndexingStatus } from '@kis/rules';
import type { PairRangeCounts } from '../store/documents.js';
import type { AttemptEnd } from '../store/index-attempts.js';
import type { IndexingErrorWrite } from '../store/indexing-errors.js';

export const ATTEMPT_OUTCOMES = Object.freeze(['succeed', 'fail', 'hang', 'errors'] as const);

export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** The outcome named by `value`, or an error naming `where` and the expected values. */
export function parseAttemptOutcome(value: unknown, where = 'attempts'): AttemptOutcome {
  if (typeof value === 'string' && (ATTEMPT_OUTCOMES as readonly string[]).includes(value)) {
    return value as AttemptOutcome;
  }
  throw new RangeError(
    `${where} must be one of ${ATTEMPT_OUTCOMES.join(', ')} (got ${JSON.stringify(value)})`,
  );
}

export const SIMULATED_FAILURE = 'kis-emulator: simulated indexing failure (attempts set to fail)';

const SIMULATED_TRACE = `Traceback (most recent call last):
  File "kis_emulator/indexing.py", line 1, in run_index_attempt
RuntimeError: ${SIMULATED_FAILURE}`;

const ENDED = (status: IndexingStatus, read: { total: number; created: number }): AttemptEnd => ({
  status,
  new_docs_indexed: read.created,
  total_docs_indexed: read.total,
  error_msg: null,
  error_count: 0,
  full_exception_trace: null,
});

/** How an attempt that ran (`succeed`, `fail`, `errors`) ends, having read `read`. */
export function attemptEnd(outcome: Exclude<AttemptOutcome, 'hang'>, read: PairRangeCounts) {
  if (outcome === 'fail') {
    return {
      ...ENDED('failed', { total: 0, created: 0 }),
      error_msg: SIMULATED_FAILURE,
      full_exception_trace: SIMULATED_TRACE,
    };
  }
  if (outcome === 'succeed') return ENDED('success', read);
  // One document (or, with none read, the source itself) could not be indexed.
  const failed = read.first === undefined ? 0 : 1;
  const indexed = { total: read.total - failed, created: Math.max(0, read.created - failed) };
  return { ...ENDED('completed_with_errors', indexed), error_count: 1 };
}

/** The error an `errors` attempt records: about the first document it read, else the source. */
export function simulatedError(
  attempt: { id: number; cc_pair_id: number },
  read: PairRangeCounts,
): IndexingErrorWrite {
  const document = read.first;
  return {
    cc_pair_id: attempt.cc_pair_id,
    index_attempt_id: attempt.id,
    document_id: document?.id ?? null,
    document_link: document?.link ?? null,
    entity_id: document === undefined ? `kis-emulator-source-of-pair-${attempt.cc_pair_id}` : null,
    failure_message:
      document === undefined
        ? 'kis-emulator: simulated failure to read the source (attempts set to errors)'
        : `kis-emulator: simulated failure to index document ${document.id} (attempts set to errors)`,
    error_type: null,
  };
}

/** How an attempt asked to stop (a pause, a deletion) ends. */
export function canceledEnd(): AttemptEnd {
  return ENDED('canceled', { total: 0, created: 0 });
}
