/**
 * The `doc_updated_at` sent with a document that has none (README, "doc_updated_at"). Servers take
 * a missing one as the time of the call, later than any stored time, so every such push re-embeds
 * (the rule book's `pushUpdatedAt` and `ingestionDecision`). kis sends instead the time its journal
 * recorded with the last acknowledgement of the same content, so the hash gate skips it, and a
 * new time, after that one, when anything in the request changed (metadata included, which the
 * server's hash leaves out). Without a journal that is the time of the send, as servers would use.
 */
import { pushUpdatedAt } from '@kis/rules';
import type { JournalStamp } from '../../journal.js';
import type { IngestionRequestInput } from '../../types.js';

/** Whole seconds: what a journal keeps, so a reused stamp is the text first sent. */
const SECOND = 1000;

/** Whether the document says when it was last updated. */
export function hasUpdatedAt(body: IngestionRequestInput): boolean {
  const at = body.document.doc_updated_at;
  return at !== undefined && at !== null && at !== '';
}

/**
 * The stamp for a document without a time: the journal's last one when it was of this content;
 * else, for a journal that keeps stamps (`kept`), the time of the send rounded up to the second
 * (never before a time the server stamped earlier in that second) and after the journal's last
 * one; else the time of the send, as the server would take it.
 */
export function updatedAtFor(last: JournalStamp | undefined, now: Date, kept: boolean): string {
  if (last?.sameContent) return last.updatedAt;
  if (!kept) return pushUpdatedAt(undefined, now);
  const at = Math.ceil(now.getTime() / SECOND) * SECOND;
  const after = last === undefined ? at : Math.max(at, Date.parse(last.updatedAt) + SECOND);
  return new Date(after).toISOString();
}

/** The body with `updatedAt` as its document's `doc_updated_at`. */
export function withUpdatedAt(
  body: IngestionRequestInput,
  updatedAt: string,
): IngestionRequestInput {
  return { ...body, document: { ...body.document, doc_updated_at: updatedAt } };
}
