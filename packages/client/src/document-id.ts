/**
 * Document ids exactly as deployed servers store them (see compat-notes): spaces become `_`, then
 * the whole id is percent-encoded with no safe characters — Python's
 * `urllib.parse.quote(s, safe='')`, which keeps only `A-Z a-z 0-9 _ . - ~`.
 */

const EXTRA_ENCODE_RE = /[!'()*]/g;
const SAFE_RE = /^[A-Za-z0-9_.~-]*$/;

function quote(s: string): string {
  if (SAFE_RE.test(s)) return s; // nothing to encode (the common case)
  let encoded: string;
  try {
    encoded = encodeURIComponent(s);
  } catch {
    throw new TypeError(
      `document id ${JSON.stringify(s)} contains a lone UTF-16 surrogate and cannot be encoded as UTF-8`,
    );
  }
  // encodeURIComponent leaves !'()* alone; Python's quote() does not.
  return encoded.replace(
    EXTRA_ENCODE_RE,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** The id a server stores for a caller-given `document.id`: spaces to `_`, then percent-encoded. */
export function normalizeDocumentId(id: string): string {
  return quote(id.replaceAll(' ', '_'));
}

/**
 * The id a server derives when a document comes without `id`: `ingestion_api_` followed by the
 * semantic identifier with spaces turned into `_`, percent-encoded with no safe characters.
 *
 * ```ts
 * deriveDocumentId('Q3 report / draft') // 'ingestion_api_Q3_report_%2F_draft'
 * ```
 */
export function deriveDocumentId(semanticIdentifier: string): string {
  return normalizeDocumentId(`ingestion_api_${semanticIdentifier}`);
}

/**
 * The raw `document.id` to send so that the server stores exactly `deriveDocumentId(si)`: the
 * server encodes a given id once more, so the unencoded form is sent.
 * @internal
 */
export function rawDerivedId(semanticIdentifier: string): string {
  return `ingestion_api_${semanticIdentifier}`;
}
