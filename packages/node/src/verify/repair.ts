/**
 * A repair re-sends documents from the source through `ingestMany`, with the pair's journal as
 * `kis ingest` keeps it, but: the journal is asked nothing (it holds these documents as sent, and
 * a re-send is the point), only told what the server acknowledged; and each document's own
 * `doc_updated_at` is dropped, so the client stamps it with the time of the send (this journal
 * offers no stamp to reuse), later than what the server stores: it re-indexes the document even
 * when its content is unchanged (an equal or earlier time with the same content is skipped,
 * compat §5: no chunks back, no new access stamp, still hidden).
 */
import type {
  IngestInput,
  IngestItem,
  IngestionDocumentInput,
  IngestJournal,
  IngestTools,
} from '@kis/client';
import { isIngestItem } from '@kis/client';

/** The journal a repair writes through: nothing is skipped, every acknowledgement recorded. */
export function bypassingJournal(journal: IngestJournal): IngestJournal {
  return {
    has: () => false,
    record: (entry) => journal.record(entry),
    ...(journal.uploadOf ? { uploadOf: (sha256: string) => journal.uploadOf?.(sha256) } : {}),
    ...(journal.recordUpload
      ? {
          recordUpload: (entry: Parameters<NonNullable<IngestJournal['recordUpload']>>[0]) =>
            journal.recordUpload?.(entry),
        }
      : {}),
  };
}

/** The document without `doc_updated_at`: stamped with the time of the send, later than any stored. */
function restamped(document: IngestionDocumentInput): IngestionDocumentInput {
  const { doc_updated_at: _stored, ...rest } = document;
  return rest;
}

/**
 * The item re-sent: its document without `doc_updated_at`. A file item's `load` is a method of its
 * object, so it is called on the item, and the fields that matter are copied by name.
 */
export function repairItem(input: IngestInput): IngestInput {
  if (!isIngestItem(input)) return restamped(input as IngestionDocumentInput);
  const item: IngestItem = input;
  const copy: IngestItem = {
    ref: item.ref,
    id: item.id,
    fingerprint: item.fingerprint,
    ...(item.ccPairId === undefined ? {} : { ccPairId: item.ccPairId }),
  };
  if (item.document !== undefined) return { ...copy, document: restamped(item.document) };
  const load = item.load;
  if (load === undefined) return copy;
  return {
    ...copy,
    load: async (tools: IngestTools) => restamped(await load.call(item, tools)),
  };
}
