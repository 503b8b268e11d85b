// Index attempts over time, as deployed servers' scheduler and workers run them: a pair that gets
// indexed (`isIndexable`) and has no attempt waiting or running gets one when run once asked for
// it, when it was never indexed, or when its connector's `refresh_freq` has passed since its last
// attempt. An attempt waits `startDelayMs` (`not_started`), runs `durationMs` (`in_progress`),
// then ends as the pair's outcome says; one asked to stop ends `canceled` at the next round. The
// pair's status and `in_repeated_error_state` follow the rule book. Connectors of the ingestion
// source are fed by pushes and never indexed this way.
import {
  DEFAULT_DOCUMENT_SOURCE,
  isAttemptSuccessful,
  isIndexable,
  nextPairStatus,
  nextRepeatedErrorState,
  type PairEvent,
  REPEATED_ERROR_ATTEMPTS,
  runTrigger,
} from '@kis/rules';
import type { IndexAttemptRecord } from '../store/index-attempts.js';
import type { PairRecord } from '../store/pairs.js';
import { attemptEnd, canceledEnd, simulatedError } from './outcomes.js';
import { earliest, type TaskContext } from './task-context.js';

/** An ISO time as the store compares them (`Date#toISOString`). */
function isoOf(value: string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

function movePair(ctx: TaskContext, pair: PairRecord, event: PairEvent): void {
  const status = nextPairStatus(pair.status, event);
  if (status !== pair.status) ctx.store.pairs.setStatus(pair.id, status);
}

/** After an attempt ended: the pair's status, its errors and its repeated-error state. */
function afterEnd(ctx: TaskContext, pair: PairRecord, attempt: IndexAttemptRecord): void {
  const { store } = ctx;
  const ended = store.indexAttempts.get(attempt.id);
  if (ended === undefined) return;
  if (isAttemptSuccessful(ended.status)) movePair(ctx, pair, 'attemptSucceeded');
  if (ended.status === 'success') store.indexingErrors.resolveAll(pair.id);
  const connector = store.connectors.get(pair.connector_id);
  const recent = store.indexAttempts.newestStatuses(pair.id, REPEATED_ERROR_ATTEMPTS);
  const hasRefreshFreq = connector?.refresh_freq != null;
  const repeated = nextRepeatedErrorState(pair.in_repeated_error_state, recent, hasRefreshFreq);
  if (repeated !== pair.in_repeated_error_state)
    store.pairs.setRepeatedErrorState(pair.id, repeated);
}

function start(ctx: TaskContext, attempt: IndexAttemptRecord, pair: PairRecord, now: Date): void {
  const { store } = ctx;
  const connector = store.connectors.get(pair.connector_id);
  const indexingStart = isoOf(connector?.indexing_start ?? null);
  const from = attempt.from_beginning
    ? indexingStart
    : (store.indexAttempts.lastSuccessPollEnd(pair.id) ?? indexingStart);
  store.transaction(() => {
    if (store.indexAttempts.start(attempt.id, from, now.toISOString())) {
      movePair(ctx, pair, 'attemptStarted');
    }
  });
}

function finish(ctx: TaskContext, attempt: IndexAttemptRecord, pair: PairRecord, now: Date): void {
  const { store } = ctx;
  const outcome = ctx.outcomeOf(pair.id);
  if (outcome === 'hang') return;
  const to = attempt.poll_range_end ?? now.toISOString();
  const read = store.documents.rangeOfPair(pair.id, attempt.poll_range_start ?? '', to);
  store.transaction(() => {
    store.indexAttempts.end(attempt.id, attemptEnd(outcome, read));
    if (outcome === 'errors') store.indexingErrors.record(simulatedError(attempt, read));
    afterEnd(ctx, pair, attempt);
  });
}

function cancel(ctx: TaskContext, attempt: IndexAttemptRecord, pair: PairRecord): void {
  ctx.store.transaction(() => {
    ctx.store.indexAttempts.end(attempt.id, canceledEnd());
    afterEnd(ctx, pair, attempt);
  });
}

/** Starts, ends and cancels the waiting and running attempts; the next time one is due. */
export function advanceAttempts(ctx: TaskContext, now: Date): number | undefined {
  const { store, timing } = ctx;
  let next: number | undefined;
  for (const attempt of store.indexAttempts.running()) {
    const pair = store.pairs.get(attempt.cc_pair_id);
    if (pair === undefined) continue;
    if (attempt.cancel_requested) {
      cancel(ctx, attempt, pair);
    } else if (attempt.time_started === null) {
      // A waiting attempt of a pair that is no longer indexed waits for a resume.
      if (!isIndexable(pair.status)) continue;
      const at = Date.parse(attempt.time_created) + timing.startDelayMs;
      if (now.getTime() < at) next = earliest(next, at);
      else {
        start(ctx, attempt, pair, now);
        next = earliest(next, now.getTime() + timing.durationMs);
      }
    } else if (ctx.outcomeOf(pair.id) !== 'hang') {
      const at = Date.parse(attempt.time_started) + timing.durationMs;
      if (now.getTime() < at) next = earliest(next, at);
      else finish(ctx, attempt, pair, now);
    }
  }
  return next;
}

/** When a pair needs a new attempt (undefined: not until something changes). */
function dueAt(ctx: TaskContext, pair: PairRecord): number | undefined {
  const { store } = ctx;
  if (pair.indexing_trigger !== null) return 0;
  const newest = store.indexAttempts.newest(pair.id);
  if (newest === undefined) return 0;
  const refresh = store.connectors.get(pair.connector_id)?.refresh_freq;
  return refresh == null ? undefined : Date.parse(newest.time_updated) + refresh * 1000;
}

/** Creates the attempts that are due; the next time one will be. */
export function scheduleAttempts(ctx: TaskContext, now: Date): number | undefined {
  const { store, timing } = ctx;
  let next: number | undefined;
  for (const pair of store.pairs.list()) {
    if (!isIndexable(pair.status)) continue;
    if (store.connectors.get(pair.connector_id)?.source === DEFAULT_DOCUMENT_SOURCE) continue;
    if (store.indexAttempts.runningOfPair(pair.id).length > 0) continue;
    const at = dueAt(ctx, pair);
    if (at === undefined) continue;
    if (now.getTime() < at) {
      next = earliest(next, at);
      continue;
    }
    store.transaction(() => {
      store.indexAttempts.create(pair.id, pair.indexing_trigger === runTrigger(true));
      store.pairs.setTrigger(pair.id, null);
    });
    next = earliest(next, now.getTime() + timing.startDelayMs);
  }
  return next;
}

/**
 * Run once for one pair: stores the trigger (`runTrigger`); false, and nothing stored, when the
 * pair already has an attempt waiting or running.
 */
export function requestRun(
  ctx: Pick<TaskContext, 'store'>,
  pairId: number,
  fromBeginning: boolean,
) {
  const { store } = ctx;
  if (store.indexAttempts.runningOfPair(pairId).length > 0) return false;
  store.pairs.setTrigger(pairId, runTrigger(fromBeginning));
  return true;
}
