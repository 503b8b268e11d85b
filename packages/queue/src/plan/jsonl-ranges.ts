/**
 * Cuts a JSONL file into byte ranges of whole lines, `batchSize` documents (non-blank lines)
 * each, reading it once as bytes: nothing is parsed here (workers parse their ranges), and only
 * the current chunk is in memory, so a file of 10^6 lines is planned in flat memory.
 */
import { createReadStream } from 'node:fs';

export interface JsonlRange {
  /** Byte offset of the range's first line. */
  offset: number;
  /** Bytes in the range (whole lines, with their line ends). */
  length: number;
  /** 1-based number of the range's first line in the file. */
  line: number;
  /** Documents (non-blank lines) in the range. */
  count: number;
}

const LF = 0x0a;

/** True when a line (bytes `from` .. `to`, line end excluded) holds only white space. */
function isBlank(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = buf[i] as number;
    if (b === 0x20 || b === 0x09 || b === 0x0d) continue;
    // a non-ASCII byte: decide as the reader does (`trim()`: a BOM or NBSP line is blank)
    if (b >= 0x80) return buf.toString('utf8', from, to).trim() === '';
    return false;
  }
  return true;
}

/** The file's ranges, in order. Lines are numbered as `jsonlSource` numbers them. */
export async function* jsonlRanges(path: string, batchSize: number): AsyncGenerator<JsonlRange> {
  let pos = 0; // absolute offset of the chunk's first byte
  let lineNo = 0;
  let lineStart = 0; // absolute offset where the current line began
  let carry: Buffer | undefined; // the current line's bytes from earlier chunks
  let open: JsonlRange | undefined;

  const endLine = (blank: boolean, end: number): JsonlRange | undefined => {
    // `end`: absolute offset just past the line end
    lineNo++;
    if (blank) return undefined;
    if (open === undefined) open = { offset: lineStart, length: 0, line: lineNo, count: 0 };
    open.count++;
    open.length = end - open.offset;
    if (open.count < batchSize) return undefined;
    const full = open;
    open = undefined;
    return full;
  };

  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const buf = chunk as Buffer;
    let from = 0;
    for (;;) {
      const nl = buf.indexOf(LF, from);
      if (nl === -1) break;
      let blank: boolean;
      if (carry !== undefined) {
        const whole = Buffer.concat([carry, buf.subarray(from, nl)]);
        blank = isBlank(whole, 0, whole.length);
        carry = undefined;
      } else blank = isBlank(buf, from, nl);
      const full = endLine(blank, pos + nl + 1);
      if (full) yield full;
      from = nl + 1;
      lineStart = pos + from;
    }
    if (from < buf.length) {
      // keep only what decides blankness: a line with a visible byte is not blank whatever follows
      const rest = buf.subarray(from);
      carry = carry === undefined ? Buffer.from(rest) : Buffer.concat([carry, rest]);
      if (!isBlank(carry, 0, carry.length)) carry = Buffer.from('x');
    }
    pos += buf.length;
  }
  if (carry !== undefined) {
    const full = endLine(isBlank(carry, 0, carry.length), pos);
    if (full) yield full;
  }
  if (open !== undefined) yield open;
}
