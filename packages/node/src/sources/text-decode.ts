/** Bytes to text for the extractors: UTF-8 (or UTF-16 with its byte order mark), strictly. */
import { ExtractionError } from './extraction-error.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const utf16le = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: false });
const utf16be = new TextDecoder('utf-16be', { fatal: true, ignoreBOM: false });

/** Decodes UTF-8 text (dropping a BOM); binary content and invalid UTF-8 are errors. */
export function decodeText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ExtractionError('not valid UTF-8 text');
  }
  if (text.includes('\u0000')) throw new ExtractionError('binary content, expected text');
  return text;
}

/**
 * Decodes a markup part (XML, XHTML) of a zipped file: UTF-16 when it starts with a UTF-16 byte
 * order mark (XML's only other required encoding), else UTF-8. `part` names it in errors ('':
 * the file itself).
 */
export function decodeMarkup(bytes: Uint8Array, part: string): string {
  const decoder =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? utf16le
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? utf16be
        : utf8;
  try {
    return decoder.decode(bytes);
  } catch {
    const what = `not valid ${decoder.encoding.toUpperCase()} text`;
    throw new ExtractionError(part === '' ? what : `${part} is ${what}`);
  }
}
