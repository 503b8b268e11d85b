// Prunes: a prune of a pair runs `pruneMs`, then sets the pair's `last_pruned`. The emulator's
// source of a pair is the documents pushed to it, all of which the source still "has", so a
// prune removes nothing. A deletion stops a running prune (no `last_pruned` then).
import type { Store } from '../store/index.js';
import { earliest, type TaskContext } from './task-context.js';

/** Starts a prune of the pair: false when one already runs. */
export function beginPrune(store: Store, pairId: number, now: Date): boolean {
  return store.pairs.startPrune(pairId, now.toISOString());
}

/** Ends the prunes whose time is up; the next time one will be. */
export function advancePrunes(ctx: TaskContext, now: Date): number | undefined {
  let next: number | undefined;
  for (const pair of ctx.store.pairs.list()) {
    if (pair.pruning_since === null) continue;
    const at = Date.parse(pair.pruning_since) + ctx.timing.pruneMs;
    if (now.getTime() < at) next = earliest(next, at);
    else ctx.store.pairs.endPrune(pair.id, now.toISOString());
  }
  return next;
}
