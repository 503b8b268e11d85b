/**
 * Reads a file line by line in chunks of 1 MiB, so a journal of millions of lines is never held
 * whole in memory.
 */

const CHUNK = 1 << 20;
const NEWLINE = 0x0a;

/** Reads up to `buffer.length` bytes at `position`; returns how many it read (0 at the end). */
export type ReadAt = (buffer: Buffer, position: number) => number;

/**
 * Calls `onLine` with each complete line (without its newline) from file position `from`, in
 * order. Returns where the complete lines end, and whether bytes follow them without a newline
 * (a torn last line).
 */
export function eachLine(
  read: ReadAt,
  onLine: (line: string) => void,
  from = 0,
): { complete: number; torn: boolean } {
  let buffer = Buffer.allocUnsafe(CHUNK);
  let held = 0; // bytes of a line begun in an earlier chunk, at the start of `buffer`
  let position = from; // file position of buffer[0]
  for (;;) {
    if (held === buffer.length) {
      // a line longer than the buffer: grow it
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, held);
      buffer = bigger;
    }
    const got = read(buffer.subarray(held), position + held);
    if (got === 0) return { complete: position, torn: held > 0 };
    const end = held + got;
    let start = 0;
    for (let nl = buffer.indexOf(NEWLINE, held); nl !== -1 && nl < end; ) {
      onLine(buffer.toString('utf8', start, nl));
      start = nl + 1;
      nl = buffer.indexOf(NEWLINE, start);
    }
    buffer.copy(buffer, 0, start, end);
    held = end - start;
    position += start;
  }
}
