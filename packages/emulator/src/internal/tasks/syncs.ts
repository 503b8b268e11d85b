// The syncs of document sets and user groups (`tasks/vespa/tasks.py:223-296,389-462`,
// `ee/.../tasks/vespa/tasks.py:19-95`): `syncMs` after a change, the documents of the object's
// old and new pairs are stamped anew with their readers and set names, stale links go, and the
// object is up to date again, or removed when it was deleted. A sync held stuck (the emulator's
// control calls, tests) never ends until released.
import { earliest, type TaskContext } from './task-context.js';

/** Whether a sync asked for at `since` is due at `now`; its due time otherwise. */
function dueIn(ctx: TaskContext, since: string | null, now: Date): number | true | undefined {
  if (since === null) return undefined;
  const due = Date.parse(since) + ctx.timing.syncMs;
  return now.getTime() >= due ? true : due;
}

function syncSets(ctx: TaskContext, now: Date): number | undefined {
  const { store, writer } = ctx;
  let next: number | undefined;
  for (const set of store.documentSets.list()) {
    if (set.is_up_to_date || set.sync_stuck) continue;
    const due = dueIn(ctx, set.sync_since, now);
    if (due === undefined) continue;
    if (due !== true) {
      next = earliest(next, due);
      continue;
    }
    store.documentSets.finishSync(set.id);
    writer.restampPairs([...set.cc_pair_ids, ...set.stale_pair_ids]);
  }
  return next;
}

function syncGroups(ctx: TaskContext, now: Date): number | undefined {
  const { store, writer } = ctx;
  let next: number | undefined;
  for (const group of store.groups.list()) {
    if (group.is_up_to_date || group.sync_stuck) continue;
    const due = dueIn(ctx, group.sync_since, now);
    if (due === undefined) continue;
    if (due !== true) {
      next = earliest(next, due);
      continue;
    }
    const pairs = store.groupPairs.ofGroup(group.id).all;
    store.transaction(() => {
      if (group.is_up_for_deletion) {
        store.groupPairs.dropAll(group.id);
        store.documentSets.forgetGroup(group.id);
        store.groups.delete(group.id);
        store.memberships.forget();
      } else {
        store.groupPairs.dropStale(group.id);
        store.groups.markSynced(group.id);
      }
    });
    writer.restampPairs(pairs);
  }
  return next;
}

/** Ends the syncs that are due; the next time one will be. */
export function advanceSyncs(ctx: TaskContext, now: Date): number | undefined {
  return earliest(syncSets(ctx, now), syncGroups(ctx, now));
}
