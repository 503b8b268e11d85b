/**
 * The producer's journal in queue mode: the workers record each stored document's content hash
 * and fingerprint in its run (`acknowledgements`), and `kis ingest --queue` and `kis sync --queue`
 * write them to the pair's journal, while they `--wait` and at their next start. So a queued run
 * leaves the journal as a local run does, and the next ingest or sync skips what it stored.
 */
import { normalizeDocumentId, pairFingerprint } from '@kis/client';
import type { QueueModule } from '../optional-queue.js';
import type { Output } from '../output.js';
import { type QueueTarget, queueCall } from '../queue-target.js';
import type { Journal } from '../run-setup.js';

/** How often, while waiting on a run, the workers' acknowledgements are written to the journal. */
export const TAKE_ACKS_EVERY_MS = 5_000;

/** Writes the acknowledgements the workers kept for this pair (or one run) to the journal. */
export async function takeAcks(
  q: QueueModule,
  target: QueueTarget,
  ccPair: number,
  journal: Journal,
  runId?: string,
): Promise<{ entries: number; unfinished: string[] }> {
  const taken = await queueCall(() =>
    q.takeAcknowledgements({
      ...target,
      ccPairId: ccPair,
      ...(runId === undefined ? {} : { runId }),
      onEntries: async (entries) => {
        for (const entry of entries) await journal.record(entry);
      },
    }),
  );
  return { entries: taken.entries, unfinished: taken.unfinished };
}

/** Before planning: the acknowledgements of earlier runs of the pair, said when there were any. */
export async function takeEarlierAcks(
  out: Output,
  q: QueueModule,
  target: QueueTarget,
  ccPair: number,
  journal: Journal,
): Promise<void> {
  const taken = await takeAcks(q, target, ccPair, journal);
  if (taken.entries > 0) {
    out.info(`journal: ${taken.entries} acknowledgement(s) from the queue's workers`);
  }
  for (const run of taken.unfinished) {
    out.warn(
      `run ${run} of cc pair ${ccPair} is not finished: documents it still holds may be sent twice (harmless upserts)`,
    );
  }
}

/**
 * Whether the journal holds a file as acknowledged unchanged for the pair (its fingerprint), as a
 * local run skips it without reading it.
 */
export function journalKnows(
  journal: Journal,
  ccPair: number,
  file: { id: string | undefined; fingerprint: string | undefined },
): boolean {
  if (file.id === undefined || file.fingerprint === undefined) return false;
  let id: string;
  try {
    id = normalizeDocumentId(file.id);
  } catch {
    return false; // an id the server refuses: the worker says why
  }
  const known = journal.hasFingerprint?.(id, pairFingerprint(file.fingerprint, ccPair));
  return known === true;
}

/** While `--wait` polls: the run's acknowledgements written every few seconds, and at the end. */
export function ackTaker(
  q: QueueModule,
  target: QueueTarget,
  ccPair: number,
  journal: Journal | undefined,
  runId: string,
): { onPoll: () => Promise<void>; takeNow: () => Promise<void> } {
  let lastTake = Date.now();
  const takeNow = async () => {
    if (journal) await takeAcks(q, target, ccPair, journal, runId);
    lastTake = Date.now();
  };
  return {
    takeNow,
    onPoll: async () => {
      if (Date.now() - lastTake >= TAKE_ACKS_EVERY_MS) await takeNow();
    },
  };
}
