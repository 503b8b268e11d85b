/** Document ids as people type them, turned into the ids servers store. */
import { normalizeDocumentId } from '@kis/rules';

/**
 * The stored form of an id typed by the user: ids as listed (already percent-encoded) are kept;
 * anything with characters a stored id cannot hold (a path like `docs/a.md`) is encoded like the
 * server does (the rule book's `normalizeDocumentId`). An id is taken as listed when, its `%`
 * escapes aside, it holds only characters that encoding leaves alone.
 */
export function storedIdFor(id: string): string {
  const unescaped = id.replaceAll('%', '');
  return normalizeDocumentId(unescaped) === unescaped ? id : normalizeDocumentId(id);
}
