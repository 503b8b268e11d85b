/**
 * A journal's fingerprint check before an item is loaded: an item with an `id` and a
 * `fingerprint` the journal recorded for that id and pair is unchanged, and a resumed run skips
 * it without reading, building or hashing its document (a file's extraction, a JSONL line's
 * validation). Answered at once when the journal can, so a skip costs no turn of the event loop.
 */
import { normalizeDocumentId } from '@kis/rules';
import type { IngestItem } from '../../ingest.js';
import { type FingerprintMatcher, pairFingerprint } from '../../journal.js';

/** The fingerprint recorded for the item sent to `ccPairId` (undefined: the item has none). */
export function recordedFingerprint(item: IngestItem | undefined, ccPairId: number | null) {
  return item?.fingerprint === undefined ? undefined : pairFingerprint(item.fingerprint, ccPairId);
}

/** The stored id the journal knows the item by, when the journal recorded this fingerprint. */
export function skippedByFingerprint(
  matches: FingerprintMatcher | undefined,
  item: IngestItem | undefined,
  fingerprint: string | undefined,
): string | undefined | Promise<string | undefined> {
  if (fingerprint === undefined || item?.id === undefined || matches === undefined) {
    return undefined;
  }
  let documentId: string;
  try {
    documentId = normalizeDocumentId(item.id);
  } catch {
    return undefined; // an id the server refuses: the document's validation says why
  }
  const known = matches(documentId, fingerprint);
  if (typeof known === 'boolean') return known ? documentId : undefined;
  return Promise.resolve(known).then((yes) => (yes ? documentId : undefined));
}
