// Prunes (`pruning/tasks.py`): a prune of a pair runs `pruneMs`, then removes every document
// linked to the pair that its connector's listing lacks (`pruneListing`): a `file` connector lists
// `FILE_CONNECTOR__<id>` for its `file_locations` (none with `[]`), so a prune of a file pair with
// no files removes every pushed document it holds; the emulator's other connectors keep what they
// hold. A document only this pair holds leaves the store and the index; a shared one loses the
// pair and is stamped anew. An `ingestion_api` connector cannot be built: its prune fails,
// removing nothing and leaving `last_pruned`. Pairs are pruned on their own when their
// connector's `prune_freq` passed (`autoPruneDueAt`). A deletion stops a running prune.
import { autoPruneDueAt, prunedIds, pruneListing } from '@kis/rules';
import type { Store } from '../store/index.js';
import type { PairRecord } from '../store/pairs.js';
import { earliest, type TaskContext } from './task-context.js';

/** Starts a prune of the pair: false when one already runs. */
export function beginPrune(store: Store, pairId: number, now: Date): boolean {
  return store.pairs.startPrune(pairId, now.toISOString());
}

/** The end of a prune: what the listing lacks goes; false when the prune failed. */
function prune(ctx: TaskContext, pair: PairRecord): boolean {
  const { store, writer } = ctx;
  const connector = store.connectors.get(pair.connector_id);
  const listing = connector === undefined ? 'fails' : pruneListing(connector.source);
  if (listing === 'fails') return false;
  if (listing === 'source' || connector === undefined) return true;
  const docs = store.pairs.documentsOf(pair.id);
  const config = connector.connector_specific_config;
  const gone = new Set(
    prunedIds(
      connector.source,
      config,
      docs.map((d) => d.id),
    ),
  );
  const shared: number[] = [];
  for (const doc of docs) {
    if (!gone.has(doc.id)) continue;
    if (!store.pairs.releaseDocument(pair.id, doc.seq, doc.owners)) shared.push(doc.seq);
  }
  writer.restamp(shared);
  return true;
}

/** Ends the prunes whose time is up; the next time one will be. */
export function advancePrunes(ctx: TaskContext, now: Date): number | undefined {
  let next: number | undefined;
  for (const pair of ctx.store.pairs.list()) {
    if (pair.pruning_since === null) continue;
    const at = Date.parse(pair.pruning_since) + ctx.timing.pruneMs;
    if (now.getTime() < at) {
      next = earliest(next, at);
      continue;
    }
    const pruned = prune(ctx, pair);
    ctx.store.pairs.endPrune(pair.id, pruned ? now.toISOString() : null);
  }
  return next;
}

/** Starts the automatic prunes that are due; the next time one will be. */
export function scheduleAutoPrunes(ctx: TaskContext, now: Date): number | undefined {
  const { store } = ctx;
  let next: number | undefined;
  for (const pair of store.pairs.list()) {
    if (pair.pruning_since !== null) continue;
    const connector = store.connectors.get(pair.connector_id);
    if (connector === undefined) continue;
    const due = autoPruneDueAt({
      prune_freq: connector.prune_freq,
      status: pair.status,
      last_pruned: pair.last_pruned,
      connector_created: connector.time_created,
      ever_indexed: store.indexAttempts.summaryOfPair(pair.id).lastSuccess !== null,
    });
    if (due === undefined) continue;
    if (now.getTime() >= due) beginPrune(store, pair.id, now);
    else next = earliest(next, due);
  }
  return next;
}
