/**
 * The ids a run has read, to refuse a second row with the same one: 8 bytes an id (its 64-bit
 * hash) in one typed array, so a run of 10^6 rows holds 8 MB however long its ids, and no row.
 * Two different ids sharing a hash (odds about n²/2^65: 3·10^-8 at 10^6 rows) would make the
 * later row fail as a duplicate, named, rather than be sent twice.
 */
import { hash64 } from '../../journal/string-hash.js';

const FIRST_CAPACITY = 1 << 12;

export class SeenIds {
  #capacity = FIRST_CAPACITY;
  #table = new Uint32Array(FIRST_CAPACITY * 2);
  #size = 0;

  /** Adds `id`; false when it was there already. */
  add(id: string): boolean {
    if ((this.#size + 1) * 10 > this.#capacity * 7) this.#grow();
    const [a, b0] = hash64(id);
    const b = b0 || 1; // 0 marks an empty slot
    const at = this.#slotOf(a, b);
    if (this.#table[at + 1] !== 0) return false;
    this.#table[at] = a;
    this.#table[at + 1] = b;
    this.#size++;
    return true;
  }

  #slotOf(a: number, b: number): number {
    const t = this.#table;
    let slot = a % this.#capacity;
    for (;;) {
      const at = slot * 2;
      if (t[at + 1] === 0 || (t[at] === a && t[at + 1] === b)) return at;
      slot = slot + 1 === this.#capacity ? 0 : slot + 1;
    }
  }

  #grow(): void {
    const old = this.#table;
    this.#capacity *= 2;
    this.#table = new Uint32Array(this.#capacity * 2);
    for (let at = 0; at < old.length; at += 2) {
      if (old[at + 1] === 0) continue;
      const to = this.#slotOf(old[at] as number, old[at + 1] as number);
      this.#table[to] = old[at] as number;
      this.#table[to + 1] = old[at + 1] as number;
    }
  }
}
