/**
 * A set of document ids at 8 bytes an id (two 32-bit hashes in open addressing), with a mark per
 * id: a verification holds a pair's 100,000 listed ids in about 2 MB instead of a `Set` of
 * strings, and counts the listed ids no source item matched. Two ids colliding on all 64 bits
 * (about one chance in 10^9 at 10^5 ids) would count as one.
 */

/** Two independent 32-bit hashes of a string (cyrb53's mixing, kept as two halves). */
function hashes(text: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  // 0/0 marks an empty slot
  return [h1 >>> 0 || 1, h2 >>> 0];
}

export class IdSet {
  #slots: Uint32Array;
  #marks: Uint8Array;
  #size = 0;
  #marked = 0;

  constructor(capacity = 1024) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.#slots = new Uint32Array(n * 2);
    this.#marks = new Uint8Array(n);
  }

  get size(): number {
    return this.#size;
  }

  /** How many ids were marked at least once. */
  get marked(): number {
    return this.#marked;
  }

  /** The slot of `h`, or of the empty slot where it would go. */
  #find(h1: number, h2: number): number {
    const slots = this.#slots;
    const mask = slots.length / 2 - 1;
    let i = (h1 ^ Math.imul(h2, 0x9e3779b1)) & mask;
    for (;;) {
      const a = slots[i * 2] as number;
      if (a === 0 || (a === h1 && slots[i * 2 + 1] === h2)) return i;
      i = (i + 1) & mask;
    }
  }

  add(id: string): void {
    const [h1, h2] = hashes(id);
    const i = this.#find(h1, h2);
    if (this.#slots[i * 2] !== 0) return;
    this.#slots[i * 2] = h1;
    this.#slots[i * 2 + 1] = h2;
    if (++this.#size * 2 > this.#slots.length / 2) this.#grow();
  }

  has(id: string): boolean {
    const [h1, h2] = hashes(id);
    return this.#slots[this.#find(h1, h2) * 2] !== 0;
  }

  /** Marks `id` when it is in the set; true when it is. */
  mark(id: string): boolean {
    const [h1, h2] = hashes(id);
    const i = this.#find(h1, h2);
    if (this.#slots[i * 2] === 0) return false;
    if (this.#marks[i] === 0) {
      this.#marks[i] = 1;
      this.#marked++;
    }
    return true;
  }

  #grow(): void {
    const old = this.#slots;
    const oldMarks = this.#marks;
    this.#slots = new Uint32Array(old.length * 2);
    this.#marks = new Uint8Array(oldMarks.length * 2);
    for (let j = 0; j < old.length / 2; j++) {
      const h1 = old[j * 2] as number;
      if (h1 === 0) continue;
      const h2 = old[j * 2 + 1] as number;
      const i = this.#find(h1, h2);
      this.#slots[i * 2] = h1;
      this.#slots[i * 2 + 1] = h2;
      this.#marks[i] = oldMarks[j] as number;
    }
  }
}
