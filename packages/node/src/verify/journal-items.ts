/**
 * What a journal holds for a pair, as items with only an id (`verify` checks them against the
 * server): each acknowledged id once, read a line at a time, the ids seen kept as 64-bit hashes
 * (the journal's own index), so a journal of a million documents is never held whole.
 */
import { createReadStream } from 'node:fs';
import type { IngestItem } from '@kis/client';
import { DEFAULT_CC_PAIR_ID, givenDocumentId } from '@kis/rules';
import { AckIndex } from '../journal/ack-index.js';
import { readJournalLine } from '../journal/lines.js';
import { streamLines } from '../sources/stream-lines.js';

export interface JournalItemsOptions {
  /** Only the acknowledgements of this pair (lines written without a pair count for any). */
  ccPairId?: number | undefined;
}

/** True when an acknowledgement sent to `sent` counts for pair `wanted`. */
function forPair(sent: number | null | undefined, wanted: number | undefined): boolean {
  if (wanted === undefined || sent === undefined) return true;
  return (sent ?? DEFAULT_CC_PAIR_ID) === wanted;
}

/**
 * The ids a journal file acknowledged, as `{ id, ref }` items (`ref`: `<path>:<line>`). The
 * journal holds stored ids; an item's `id` is given as a caller gives it (`givenDocumentId`).
 */
export async function* journalItems(
  path: string,
  options: JournalItemsOptions = {},
): AsyncGenerator<IngestItem & { id: string; ref: string }, void, undefined> {
  const seen = new AckIndex();
  let number = 0;
  for await (const line of streamLines(createReadStream(path))) {
    number++;
    const entry = readJournalLine(line, number, path);
    if (entry.kind !== 'ack' || !forPair(entry.ccPairId, options.ccPairId)) continue;
    if (seen.hasId(entry.id)) continue;
    seen.set(entry.id, '', undefined);
    yield { id: givenDocumentId(entry.id), ref: `${path}:${number}` };
  }
}
