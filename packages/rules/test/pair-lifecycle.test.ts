// Table tests of pair statuses and index attempts in the rule book. Expected values are written
// out from what deployed servers do (docs/deployed-servers.md, "Operating connectors").
import { describe, expect, it } from 'vitest';
import {
  DELETION_PHASES,
  INDEXABLE_PAIR_STATUSES,
  isAttemptRunning,
  isAttemptSuccessful,
  isIndexable,
  LIFECYCLE_TEXTS,
  NEW_PAIR_STATUS,
  NEWEST_ATTEMPT_FIRST,
  nextPairStatus,
  nextRepeatedErrorState,
  type PairEvent,
  type PairStatus,
  runTrigger,
  SETTABLE_PAIR_STATUSES,
} from '../src/index.js';

describe('pair statuses', () => {
  it('a new pair is SCHEDULED; a deletion cancels waiting attempts "Canceled by user"', () => {
    expect(NEW_PAIR_STATUS).toBe('SCHEDULED');
    expect(LIFECYCLE_TEXTS.attemptCanceled).toBe('Canceled by user');
  });

  it('only SCHEDULED, INITIAL_INDEXING and ACTIVE pairs get indexed', () => {
    expect(INDEXABLE_PAIR_STATUSES).toEqual(['SCHEDULED', 'INITIAL_INDEXING', 'ACTIVE']);
    expect(['PAUSED', 'DELETING', 'INVALID', 'active'].map(isIndexable)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('the main line sets only ACTIVE and PAUSED; release 4.6.1 any status', () => {
    expect(SETTABLE_PAIR_STATUSES.main).toEqual(['ACTIVE', 'PAUSED']);
    expect(SETTABLE_PAIR_STATUSES['v4.6.1']).toEqual([
      'SCHEDULED',
      'INITIAL_INDEXING',
      'ACTIVE',
      'PAUSED',
      'DELETING',
      'INVALID',
    ]);
  });

  it.each([
    ['SCHEDULED', 'attemptStarted', 'INITIAL_INDEXING'],
    ['INITIAL_INDEXING', 'attemptStarted', 'INITIAL_INDEXING'],
    ['ACTIVE', 'attemptStarted', 'ACTIVE'],
    ['PAUSED', 'attemptStarted', 'PAUSED'],
    ['INITIAL_INDEXING', 'attemptSucceeded', 'ACTIVE'],
    ['SCHEDULED', 'attemptSucceeded', 'ACTIVE'],
    ['ACTIVE', 'attemptSucceeded', 'ACTIVE'],
    ['PAUSED', 'attemptSucceeded', 'PAUSED'],
    ['ACTIVE', 'validationFailedRepeatedly', 'INVALID'],
    ['SCHEDULED', 'validationFailedRepeatedly', 'INVALID'],
    ['PAUSED', 'validationFailedRepeatedly', 'PAUSED'],
    ['ACTIVE', 'paused', 'PAUSED'],
    ['PAUSED', 'paused', 'PAUSED'],
    ['PAUSED', 'resumed', 'ACTIVE'],
    ['INVALID', 'resumed', 'ACTIVE'],
    ['DELETING', 'resumed', 'ACTIVE'],
    ['SCHEDULED', 'deletionStarted', 'DELETING'],
    ['PAUSED', 'deletionStarted', 'DELETING'],
  ])('%s, then %s: %s', (status, event, expected) => {
    expect(nextPairStatus(status as PairStatus, event as PairEvent)).toBe(expected);
  });

  it('a deletion waits in PENDING, cleans up in STARTED', () => {
    expect(DELETION_PHASES).toEqual({ waiting: 'PENDING', cleaning: 'STARTED' });
  });
});

describe('index attempts', () => {
  it.each([
    ['not_started', true, false],
    ['in_progress', true, false],
    ['success', false, true],
    ['completed_with_errors', false, true],
    ['failed', false, false],
    ['canceled', false, false],
    ['interrupted', false, false],
    [null, false, false],
  ])('%j: running %j, successful %j', (status, running, successful) => {
    expect(isAttemptRunning(status)).toBe(running);
    expect(isAttemptSuccessful(status)).toBe(successful);
  });

  const FAILED_5 = ['failed', 'failed', 'failed', 'failed', 'failed'];
  it.each([
    [false, FAILED_5, true, true],
    [false, ['failed', 'failed', 'failed', 'failed'], true, false],
    [false, ['failed', 'failed', 'failed', 'failed', 'success'], true, false],
    [false, ['failed'], false, true],
    [true, ['success', ...FAILED_5], true, false],
    [true, ['completed_with_errors'], false, false],
    [true, ['canceled', ...FAILED_5], true, true],
    [false, ['canceled', ...FAILED_5], true, false],
    [false, [], true, false],
  ])(
    'in repeated error %j, then attempts %j (refresh_freq set: %j): %j',
    (current, newestFirst, hasRefreshFreq, expected) => {
      expect(nextRepeatedErrorState(current, newestFirst, hasRefreshFreq)).toBe(expected);
    },
  );

  it('newest first: by creation, then by id', () => {
    expect(NEWEST_ATTEMPT_FIRST).toEqual(['time_created', 'id']);
  });

  it('run once stores update, or reindex from the beginning', () => {
    expect(runTrigger(false)).toBe('update');
    expect(runTrigger(true)).toBe('reindex');
  });
});
