/**
 * What one ingestion call does to a document that may already be stored, and what it answers
 * (docs/deployed-servers.md, "De-duplication"). Every call runs with the time skip off
 * (`ingestion.py:190`), so only the content hash can skip a document; a missing `doc_updated_at`
 * is the time of the call (`:113-114`).
 */
import { releaseHas } from './server-versions.js';

/**
 * `index`: the id is not stored yet; `reembed`: re-chunked, re-embedded and rewritten; `skip`:
 * nothing in the row or the index changes, only the pair link is added.
 */
export type IngestionDecision = 'index' | 'reembed' | 'skip';

/** The stored document a push is compared with. */
export interface StoredVersion {
  /** `doc_updated_at` as stored (written only after a successful index write). */
  readonly updatedAt: string;
  /** The stored content hash; empty when no index write ever succeeded. */
  readonly contentHash: string;
}

/**
 * The decision table of `indexing_pipeline.py:340-408`: a later (or missing, i.e. now) time
 * re-embeds whatever the hash; an equal or earlier time skips the same content and re-embeds
 * different content (the stored time then becomes the earlier one). Servers before v4.0.0 have no
 * hash gate: every call re-embeds (`indexing_pipeline.py:295-317@v3.3.0`).
 */
export function ingestionDecision(
  stored: StoredVersion | undefined,
  sent: { readonly updatedAt: string; readonly contentHash: string },
  version: string | undefined,
): IngestionDecision {
  if (stored === undefined) return 'index';
  if (!releaseHas('contentHashGate', version)) return 'reembed';
  if (Date.parse(sent.updatedAt) > Date.parse(stored.updatedAt)) return 'reembed';
  return sent.contentHash === stored.contentHash ? 'skip' : 'reembed';
}

/**
 * The `doc_updated_at` a push is compared and stored with: the one sent, else the time of the
 * call (`ingestion.py:113-114`), later than any stored time, so such a push always re-embeds.
 */
export function pushUpdatedAt(sent: string | null | undefined, callTime: Date): string {
  return sent ?? callTime.toISOString();
}

/**
 * `already_existed` of the answer: "the primary index wrote no document new to it"
 * (`ingestion.py:231-234`, `indexing_pipeline.py:1520-1523`). `wroteNewToIndex` is true only when
 * the call's index write succeeded and the index held no chunk of the id before; a skip, a
 * filtered document, a rewrite and a failed write are all `true`. Servers from v0.20.0 to v3.2.x
 * answer the other way round (`new_docs > 0`).
 */
export function alreadyExistedAnswer(
  wroteNewToIndex: boolean,
  version: string | undefined,
): boolean {
  return releaseHas('alreadyExistedInverted', version) ? wroteNewToIndex : !wroteNewToIndex;
}

/**
 * `already_existed` read back as "the document was new to the index", on a server of `version`;
 * what a client reads the answer as. Never proof that the document is searchable: a failed write
 * answers as an existing document (check with the size-info call).
 */
export function wasNewToIndex(alreadyExisted: boolean, version: string | undefined): boolean {
  return releaseHas('alreadyExistedInverted', version) ? alreadyExisted : !alreadyExisted;
}

/** What a re-embedding push resets (`db/document.py:852-900`); a skip leaves both alone. */
export const REEMBED_RESETS = Object.freeze({ hidden: false, boost: 0 });
