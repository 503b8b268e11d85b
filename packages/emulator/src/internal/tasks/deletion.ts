// Pair deletions, asynchronous as on deployed servers. The deletion attempt cancels the pair's
// waiting attempts at once and sets it DELETING (`PENDING`); the deletion then stops the pair's
// running attempt and prune and waits for them (at least `deletionDelayMs`), removes its
// documents (`STARTED`, at least `deletionDelayMs`; those another pair also holds only lose this
// one and are stamped anew), and last the pair with its attempts and errors, and its connector
// when no other pair uses it; the credential stays. A pair set DELETING
// otherwise (release 4.6.1's status call, a database of an earlier emulator) is deleted the same
// way; one resumed meanwhile is not.
import { DELETION_PHASES, LIFECYCLE_TEXTS, nextPairStatus } from '@kis/rules';
import type { Store } from '../store/index.js';
import type { PairRecord } from '../store/pairs.js';
import { earliest, type TaskContext } from './task-context.js';

/** Starts the deletion of the pair (again: nothing changes). */
export function beginDeletion(store: Store, pairId: number, now: Date): void {
  store.transaction(() => {
    store.indexAttempts.cancelWaiting(pairId, LIFECYCLE_TEXTS.attemptCanceled);
    const pair = store.pairs.get(pairId);
    if (pair === undefined || pair.deletion_status !== null) return;
    store.pairs.setStatus(pairId, nextPairStatus(pair.status, 'deletionStarted'));
    store.pairs.setDeletion(pairId, DELETION_PHASES.waiting, now.toISOString());
  });
}

/** The waiting phase: stop the pair's work; clean up once none runs and the delay is over. */
function waitForWork(ctx: TaskContext, pair: PairRecord, since: number, now: Date) {
  const { store, timing } = ctx;
  store.indexAttempts.requestCancel(pair.id);
  if (pair.pruning_since !== null) store.pairs.endPrune(pair.id, null);
  // A canceled attempt ends at the attempts' round: look again right after it.
  if (store.indexAttempts.runningOfPair(pair.id).length > 0) return now.getTime();
  const at = since + timing.deletionDelayMs;
  if (now.getTime() < at) return at;
  store.pairs.setDeletion(pair.id, DELETION_PHASES.cleaning, now.toISOString());
  return now.getTime() + timing.deletionDelayMs;
}

/** Moves every deletion on; the next time one is due. */
export function advanceDeletions(ctx: TaskContext, now: Date): number | undefined {
  const { store, timing } = ctx;
  let next: number | undefined;
  for (const pair of store.pairs.list()) {
    if (pair.status !== 'DELETING') continue;
    if (pair.deletion_status === null || pair.deletion_since === null) {
      store.pairs.setDeletion(pair.id, DELETION_PHASES.waiting, now.toISOString());
      next = earliest(next, now.getTime() + timing.deletionDelayMs);
      continue;
    }
    const since = Date.parse(pair.deletion_since);
    if (pair.deletion_status === DELETION_PHASES.waiting) {
      next = earliest(next, waitForWork(ctx, pair, since, now));
    } else if (now.getTime() < since + timing.deletionDelayMs) {
      next = earliest(next, since + timing.deletionDelayMs);
    } else {
      // documents another pair also holds stay, stamped anew without this pair
      const shared = store.pairs
        .documentsOf(pair.id)
        .filter((d) => d.owners > 1)
        .map((d) => d.seq);
      store.pairs.deleteWithDocuments(pair.id);
      ctx.writer.restamp(shared);
    }
  }
  return next;
}
