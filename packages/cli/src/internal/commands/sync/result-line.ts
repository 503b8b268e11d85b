/** A result of a sync run as `kis sync` prints it, local and queued alike. */
import type { SyncResult } from '@kis/node';
import { describeFailure } from '../../failure.js';

/** The result's JSON line, and why it failed (undefined when it did not). */
export function resultLine(
  r: SyncResult,
  baseUrl: string | undefined,
): { line: Record<string, unknown>; reason: string | undefined } {
  const line: Record<string, unknown> = { action: r.action, status: r.status };
  if (r.documentId) line.document_id = r.documentId;
  if (r.ref) line.ref = r.ref;
  if (r.status !== 'failed' && r.status !== 'not-deletable') return { line, reason: undefined };
  const reason = describeFailure(r.error, baseUrl).message;
  line.error = reason;
  return { line, reason };
}

/** A stored id as people wrote it (`docs%2Fa.md` → `docs/a.md`), for text output. */
export function readableId(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}
