/**
 * Counts the non-blank lines of a byte stream as `streamLines` splits them (LF, CRLF or a lone
 * CR) and `readJsonl` skips them (`line.trim() === ''`), without decoding it: a progress total
 * read beside the run must not cost what the run's own reading does. Only a line whose first
 * character past ASCII blanks is not ASCII (a BOM, a Unicode space) is decoded to decide.
 */

const LF = 10;
const CR = 13;

/** Space, tab, vertical tab, form feed: the ASCII characters `String#trim` removes. */
function isAsciiBlank(byte: number): boolean {
  return byte === 32 || byte === 9 || byte === 11 || byte === 12;
}

export class LineCounter {
  #count = 0;
  /** The current line so far: only ASCII blanks, some other ASCII, or undecided (kept bytes). */
  #state: 'blank' | 'text' | 'undecided' = 'blank';
  #undecided: Buffer[] = [];
  /** The last chunk ended with a CR: a LF starting the next one belongs to it. */
  #afterCr = false;

  write(chunk: Buffer): void {
    let at = this.#afterCr && chunk[0] === LF ? 1 : 0;
    this.#afterCr = false;
    let lf = -1;
    let cr = -1;
    while (at < chunk.length) {
      if (lf < at) lf = chunk.indexOf(LF, at);
      if (cr < at) cr = chunk.indexOf(CR, at);
      if (lf === -1) lf = chunk.length;
      if (cr === -1) cr = chunk.length;
      const end = Math.min(lf, cr);
      this.#take(chunk, at, end);
      if (end === chunk.length) return;
      this.#endLine();
      if (chunk[end] === CR) {
        if (end + 1 === chunk.length) this.#afterCr = true;
        at = chunk[end + 1] === LF ? end + 2 : end + 1;
      } else {
        at = end + 1;
      }
    }
  }

  /** The count, the last line (without a break) included. */
  end(): number {
    this.#endLine();
    return this.#count;
  }

  #take(chunk: Buffer, from: number, to: number): void {
    if (this.#state === 'text') return;
    if (this.#state === 'undecided') {
      this.#undecided.push(Buffer.from(chunk.subarray(from, to)));
      return;
    }
    for (let i = from; i < to; i++) {
      const byte = chunk[i] as number;
      if (isAsciiBlank(byte)) continue;
      if (byte < 0x80) {
        this.#state = 'text';
      } else {
        this.#state = 'undecided';
        this.#undecided.push(Buffer.from(chunk.subarray(i, to)));
      }
      return;
    }
  }

  #endLine(): void {
    if (this.#state === 'text') this.#count++;
    else if (this.#state === 'undecided') {
      if (Buffer.concat(this.#undecided).toString('utf8').trim() !== '') this.#count++;
      this.#undecided = [];
    }
    this.#state = 'blank';
  }
}
