/**
 * The elements of a JSON array read one at a time from its bytes: a listing of 100,000 documents
 * is 10 MB of text but 30 MB as objects, so only the element being read is ever parsed. The
 * bytes are scanned (strings and nesting tracked), each element's slice decoded and parsed.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN = new Set([0x5b, 0x7b]);
const CLOSE = new Set([0x5d, 0x7d]);
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

const utf8 = new TextDecoder();

/** Where the next element ends (its closing comma or bracket), scanning from `from`. */
function elementEnd(bytes: Uint8Array, from: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (OPEN.has(b)) depth++;
    else if (CLOSE.has(b)) {
      if (depth === 0) return i;
      depth--;
    } else if (b === COMMA && depth === 0) return i;
  }
  throw new SyntaxError('the JSON array ends in the middle of an element');
}

function skipSpace(bytes: Uint8Array, from: number): number {
  let i = from;
  while (i < bytes.length && SPACE.has(bytes[i] as number)) i++;
  return i;
}

/** Each element's byte range `[start, end)`, in order; a body that is not an array throws. */
function* elementRanges(bytes: Uint8Array): Generator<[number, number], void, undefined> {
  let i = skipSpace(bytes, 0);
  if (bytes[i] !== 0x5b) throw new SyntaxError('expected a JSON array');
  i = skipSpace(bytes, i + 1);
  if (bytes[i] === 0x5d) return;
  for (;;) {
    const end = elementEnd(bytes, i);
    yield [i, end];
    if (bytes[end] === 0x5d) return;
    i = skipSpace(bytes, end + 1);
  }
}

/** The array's elements, parsed one at a time as they are read. */
export function* arrayElements(bytes: Uint8Array): Generator<unknown, void, undefined> {
  for (const [start, end] of elementRanges(bytes)) {
    yield JSON.parse(utf8.decode(bytes.subarray(start, end)));
  }
}

/** The number of elements of the array (a scan, nothing decoded). */
export function countElements(bytes: Uint8Array): number {
  let n = 0;
  for (const _ of elementRanges(bytes)) n++;
  return n;
}
