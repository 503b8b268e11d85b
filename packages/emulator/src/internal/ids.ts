// Document ids as deployed servers store them (compat-notes, "Ingestion"):
// spaces become `_`, then the whole string is percent-encoded with no safe characters,
// exactly like Python's `urllib.parse.quote(s, safe='')`.

const UNRESERVED = /^[A-Za-z0-9_.~-]*$/;
const HEX = '0123456789ABCDEF';

function isUnreservedByte(b: number): boolean {
  return (
    (b >= 0x30 && b <= 0x39) || // 0-9
    (b >= 0x41 && b <= 0x5a) || // A-Z
    (b >= 0x61 && b <= 0x7a) || // a-z
    b === 0x5f || // _
    b === 0x2e || // .
    b === 0x2d || // -
    b === 0x7e // ~
  );
}

/**
 * Python's `urllib.parse.quote(s, safe='')`: every byte of the UTF-8 encoding except
 * `A-Za-z0-9_.-~` becomes `%XX` (upper-case hex). Unlike `encodeURIComponent`, the characters
 * `!'()*` are escaped too. Lone surrogates (which JSON allows) are encoded as U+FFFD.
 */
export function pythonQuote(s: string): string {
  if (UNRESERVED.test(s)) return s;
  const bytes = Buffer.from(s, 'utf8');
  let out = '';
  for (const b of bytes) {
    if (isUnreservedByte(b)) out += String.fromCharCode(b);
    else out += `%${HEX[b >> 4]}${HEX[b & 15]}`;
  }
  return out;
}

/** Spaces to `_`, then `pythonQuote` (deployed servers' `make_url_compatible`). */
export function makeUrlCompatible(s: string): string {
  return pythonQuote(s.replaceAll(' ', '_'));
}

/**
 * The id a document is stored under: the given id made URL-compatible, or, when the id is
 * absent (or empty), `ingestion_api_` followed by the URL-compatible semantic identifier.
 */
export function storedDocumentId(
  id: string | null | undefined,
  semanticIdentifier: string,
): string {
  if (id) return makeUrlCompatible(id);
  return `ingestion_api_${makeUrlCompatible(semanticIdentifier)}`;
}
