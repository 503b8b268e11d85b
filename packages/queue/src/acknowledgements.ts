/**
 * `takeAcknowledgements(options)`: what the workers of runs enqueued with `acknowledgements`
 * stored, as journal entries (id, content hash, fingerprint), handed to the producer's journal and
 * then removed from Redis. A sync through the queue plans from its journal like a local one; this
 * is how that journal learns what the workers stored.
 */
import type { JournalEntry } from '@kis/client';
import type { QueueTarget } from './connection.js';
import { QueueUsageError } from './errors.js';
import { checkRunId } from './run-id.js';
import { withQueue } from './session.js';

export interface TakeAcknowledgementsOptions extends QueueTarget {
  /** One run; default: every run that records acknowledgements (of `ccPairId`, when given). */
  runId?: string | undefined;
  /** Only runs enqueued for this pair. */
  ccPairId?: number | null | undefined;
  /**
   * Receives the entries a few hundred at a time; they are removed from Redis once it resolves
   * (a crash in between hands them over again: record them idempotently).
   */
  onEntries: (entries: JournalEntry[]) => void | Promise<void>;
}

export interface TakenAcknowledgements {
  /** Entries handed over. */
  entries: number;
  /** Runs read, and which of them are not finished yet (more may come). */
  runs: string[];
  unfinished: string[];
}

export async function takeAcknowledgements(
  options: TakeAcknowledgementsOptions,
): Promise<TakenAcknowledgements> {
  if (typeof options.onEntries !== 'function') {
    throw new QueueUsageError('onEntries must be a function receiving journal entries');
  }
  const only = options.runId === undefined ? undefined : checkRunId(options.runId);
  return withQueue(options, async ({ store }) => {
    const result: TakenAcknowledgements = { entries: 0, runs: [], unfinished: [] };
    for (const runId of only === undefined ? await store.runIds() : [only]) {
      const found = await store.describe(runId);
      if (!found?.run.acks) continue;
      if (options.ccPairId !== undefined && found.run.ccPairId !== options.ccPairId) continue;
      result.runs.push(runId);
      const c = found.counters;
      if (c.state === 'enqueuing' || c.documents > c.created + c.updated + c.failed) {
        result.unfinished.push(runId);
      }
      result.entries += await store.takeAcks(runId, (batch) =>
        options.onEntries(batch.map(({ documentId, ack }) => ({ id: documentId, ...ack }))),
      );
    }
    return result;
  });
}
