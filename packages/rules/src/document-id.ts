/**
 * Document ids as servers store them (docs/deployed-servers.md, "Document ids"): spaces become
 * `_`, then the whole id is percent-encoded with no safe characters, as Python's
 * `urllib.parse.quote(s, safe='')` does (only `A-Z a-z 0-9 _ . - ~` stay). A document sent
 * without an id gets `ingestion_api_` followed by its semantic identifier, stored the same way.
 */

/** Prefix of the id a server derives for a document sent without one. */
export const DERIVED_ID_PREFIX = 'ingestion_api_';

/**
 * Thrown for an id that cannot be stored: it holds a lone UTF-16 surrogate, which has no UTF-8
 * encoding (deployed servers answer such an id with 400 `{"message": ...}`).
 */
export class DocumentIdError extends TypeError {
  constructor(readonly id: string) {
    super(
      `document id ${JSON.stringify(id)} contains a lone UTF-16 surrogate and cannot be encoded as UTF-8`,
    );
    this.name = 'DocumentIdError';
  }
}

const SAFE = /^[A-Za-z0-9_.~-]*$/;
// encodeURIComponent leaves these alone; Python's quote() does not
const EXTRA = /[!'()*]/g;

function quote(s: string): string {
  if (SAFE.test(s)) return s; // nothing to encode: the common case
  let encoded: string;
  try {
    encoded = encodeURIComponent(s);
  } catch {
    throw new DocumentIdError(s);
  }
  return encoded.replace(EXTRA, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The id a server stores for a caller-given `document.id`: spaces to `_`, then percent-encoded. */
export function normalizeDocumentId(id: string): string {
  return quote(id.replaceAll(' ', '_'));
}

/**
 * An id to give for a document a server stores as `storedId` (what ingestion answered, what a
 * listing or a journal holds): `normalizeDocumentId` of it is `storedId` again. Percent-decoding
 * undoes the encoding exactly; spaces were already `_`.
 */
export function givenDocumentId(storedId: string): string {
  try {
    return decodeURIComponent(storedId);
  } catch {
    return storedId; // not an encoding servers produce: given as it is
  }
}

/**
 * The id a server derives for a document sent without `id`:
 * `deriveDocumentId('Q3 report / draft')` is `'ingestion_api_Q3_report_%2F_draft'`.
 */
export function deriveDocumentId(semanticIdentifier: string): string {
  return normalizeDocumentId(DERIVED_ID_PREFIX + semanticIdentifier);
}

/**
 * The raw `document.id` that makes a server store exactly `deriveDocumentId(si)`: a given id is
 * encoded once more, so the unencoded form is sent.
 */
export function rawDerivedId(semanticIdentifier: string): string {
  return DERIVED_ID_PREFIX + semanticIdentifier;
}

/** The id a document is stored under: its own id normalized, or (missing or empty) derived. */
export function storedDocumentId(
  id: string | null | undefined,
  semanticIdentifier: string,
): string {
  return id ? normalizeDocumentId(id) : deriveDocumentId(semanticIdentifier);
}
