/**
 * Carrying a sync plan out: the creates and updates through `ingestMany` (concurrency, retries,
 * outages, journal), then the deletions, a few at a time; a 404 counts as deleted, a 400 (not
 * created by ingestion) is reported and left alone. Nothing is deleted after a run that stopped.
 */
import type { IngestInput, IngestItem, IngestRun, KisClient } from '@kis/client';
import { BadRequestError, isIngestItem as isItem, KisError, NotFoundError } from '@kis/client';
import type { Planned, PlannedItem } from './plan.js';
import type { SyncOptions, SyncResult, SyncRun, SyncRunOptions, SyncSummary } from './types.js';

const DELETE_CONCURRENCY = 4;
/** Deletions are idempotent (a 404 counts as done), so they may be retried like ingestion. */
const DELETE_RETRIES = 8;

/** The input `ingestMany` gets for a planned item (the plan's document when it built one). */
function inputOf(p: PlannedItem): IngestInput {
  const item = p.item;
  if (!isItem(item) || p.document === undefined) return item;
  const { load: _load, id: _id, ...rest } = item as IngestItem & { id?: string };
  return { ...rest, document: p.document };
}

export function runSync(
  kis: KisClient,
  planned: Planned,
  options: SyncOptions,
  how: SyncRunOptions = {},
): SyncRun {
  const { plan } = planned;
  if (plan.refused) throw new KisError(`sync refused: ${plan.refused}`);
  const updates = new Set(plan.update.map((e) => e.documentId));
  const actionOf = (index: number): 'create' | 'update' => {
    const id = planned.toSend[index]?.documentId;
    return id !== undefined && updates.has(id) ? 'update' : 'create';
  };
  const summary: SyncSummary = {
    created: 0,
    updated: 0,
    unchanged: plan.unchanged.length,
    deleted: 0,
    notDeletable: 0,
    failed: 0,
    aborted: 0,
    ingest: undefined,
    stopped: undefined,
  };
  let stopped = false;
  let ingest: IngestRun | undefined;
  const {
    ccPairId,
    journal,
    owns: _owns,
    prune,
    maxDelete: _max,
    force: _force,
    planConcurrency: _pc,
    ...ingestOptions
  } = options;

  function count(r: SyncResult) {
    if (r.status === 'created') summary.created++;
    else if (r.status === 'updated') summary.updated++;
    else if (r.status === 'deleted') summary.deleted++;
    else if (r.status === 'not-deletable') summary.notDeletable++;
    else if (r.status === 'failed') summary.failed++;
    else if (r.status === 'aborted') summary.aborted++;
  }

  async function deleteOne(documentId: string): Promise<SyncResult> {
    const base = { action: 'delete' as const, documentId, ref: undefined };
    try {
      await kis.ingestion.delete(documentId, {
        maxRetries: DELETE_RETRIES,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return { ...base, status: 'deleted' };
    } catch (error) {
      if (NotFoundError.isInstance(error)) return { ...base, status: 'deleted' };
      if (BadRequestError.isInstance(error)) return { ...base, status: 'not-deletable', error };
      return { ...base, status: 'failed', error: error as Error };
    }
  }

  async function* results(): AsyncGenerator<SyncResult> {
    if (how.send !== false && planned.toSend.length > 0) {
      ingest = kis.ingestMany(planned.toSend.map(inputOf), {
        ...ingestOptions,
        ccPairId,
        ...(journal ? { journal } : {}),
      });
      for await (const r of ingest) {
        yield {
          action: actionOf(r.index),
          documentId: r.documentId,
          ref: r.ref,
          status: r.status,
          ...(r.error ? { error: r.error } : {}),
        };
      }
      summary.ingest = await ingest.summary;
      const why = summary.ingest.stopped?.message;
      if (why !== undefined || summary.ingest.cancelled) {
        summary.stopped = why ?? 'cancelled';
        return;
      }
    }
    if (!prune || plan.pruneBlocked || stopped) return;
    const queue = plan.delete.map((e) => e.documentId);
    while (queue.length > 0 && !stopped && !options.signal?.aborted) {
      const batch = queue.splice(0, DELETE_CONCURRENCY);
      for (const r of await Promise.all(batch.map(deleteOne))) yield r;
    }
    if (queue.length > 0) summary.stopped = 'cancelled';
  }

  const gen = (async function* () {
    for await (const r of results()) {
      count(r);
      yield r;
    }
  })();
  let consumed = false;
  let finished: Promise<SyncSummary> | undefined;
  return {
    [Symbol.asyncIterator]() {
      if (consumed) throw new Error('a sync run can be iterated once');
      consumed = true;
      return gen;
    },
    done() {
      finished ??= (async () => {
        if (!consumed) {
          consumed = true;
          for await (const _ of gen) {
            // counted as they come
          }
        }
        return summary;
      })();
      return finished;
    },
    stop() {
      stopped = true;
      ingest?.stop();
    },
  };
}
