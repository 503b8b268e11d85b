/**
 * The states of a connector/credential pair and how they change (docs/deployed-servers.md,
 * "Operating connectors"). The values are the spec's `CcPairStatus`; the phases of a deletion
 * are its `TaskStatus` values in `latest_deletion_attempt`.
 */
import type { ServerKind } from './server-kinds.js';

export const PAIR_STATUSES = Object.freeze([
  'SCHEDULED',
  'INITIAL_INDEXING',
  'ACTIVE',
  'PAUSED',
  'DELETING',
  'INVALID',
] as const);

export type PairStatus = (typeof PAIR_STATUSES)[number];

/** The status of a new pair, until its first index attempt starts. */
export const NEW_PAIR_STATUS: PairStatus = 'SCHEDULED';

/** The statuses whose pairs get indexed; a run asked for in another waits for a resume. */
export const INDEXABLE_PAIR_STATUSES: readonly PairStatus[] = Object.freeze([
  'SCHEDULED',
  'INITIAL_INDEXING',
  'ACTIVE',
]);

export function isIndexable(status: string): boolean {
  return (INDEXABLE_PAIR_STATUSES as readonly string[]).includes(status);
}

/** The statuses `setCcPairStatus` sets, per kind of server (others: 400 on the main line). */
export const SETTABLE_PAIR_STATUSES: Readonly<Record<ServerKind, readonly PairStatus[]>> =
  Object.freeze({
    seed: PAIR_STATUSES,
    'v4.6.1': PAIR_STATUSES,
    main: Object.freeze(['ACTIVE', 'PAUSED'] as const),
  });

/** Consecutive failed connector validations after which a pair becomes `INVALID`. */
export const INVALID_AFTER_VALIDATION_FAILURES = 5;

/**
 * What changes a pair's status: its first index attempt starts, an attempt succeeds, its
 * connector failed validation too often, a caller pauses, resumes or deletes it.
 */
export type PairEvent =
  | 'attemptStarted'
  | 'attemptSucceeded'
  | 'validationFailedRepeatedly'
  | 'paused'
  | 'resumed'
  | 'deletionStarted';

/**
 * The status after `event`. Pause and resume do not look at the current status (a `DELETING`
 * pair can be resumed); the indexing events only move pairs that get indexed.
 */
export function nextPairStatus(status: PairStatus, event: PairEvent): PairStatus {
  switch (event) {
    case 'attemptStarted':
      return status === 'SCHEDULED' ? 'INITIAL_INDEXING' : status;
    case 'attemptSucceeded':
      return status === 'SCHEDULED' || status === 'INITIAL_INDEXING' ? 'ACTIVE' : status;
    case 'validationFailedRepeatedly':
      return isIndexable(status) ? 'INVALID' : status;
    case 'paused':
      return 'PAUSED';
    case 'resumed':
      return 'ACTIVE';
    case 'deletionStarted':
      return 'DELETING';
  }
}

/**
 * The phases of a deletion in `latest_deletion_attempt.status`: `PENDING` while it waits for
 * running work to stop, `STARTED` while documents are removed. The deletion is over when
 * `getCcPair` answers 404; a failure leaves the pair `DELETING` with `deletion_failure_message`.
 */
export const DELETION_PHASES = Object.freeze({ waiting: 'PENDING', cleaning: 'STARTED' } as const);
