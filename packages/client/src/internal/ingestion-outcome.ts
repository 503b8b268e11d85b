/**
 * What an ingestion answer's `already_existed` says, read as the server's release means it: true
 * for a new document from v0.20.0 until v3.3.0, false for one since (the rule book's
 * `wasNewToIndex`). Never proof that the document is indexed: a failed index write answers as an
 * existing document (check with `documents.sizeInfo`).
 */
import { wasNewToIndex } from '@kis/rules';

/** `created` when the index had no document of that id before the call, else `updated`. */
export type IngestionOutcome = 'created' | 'updated';

export function ingestionOutcome(
  alreadyExisted: boolean,
  version: string | undefined,
): IngestionOutcome {
  return wasNewToIndex(alreadyExisted, version) ? 'created' : 'updated';
}
