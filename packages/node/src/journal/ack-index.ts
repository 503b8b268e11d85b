/**
 * The journal's acknowledgements in memory, 24 bytes each: per document id (as a 64-bit hash),
 * the 64-bit hash of its acknowledged content, a 32-bit hash of its fingerprint and the
 * `doc_updated_at` the run sent for a document that had none (seconds since 1970). An open
 * addressing table in one typed array, grown by half when it is 80 % full, so its memory does
 * not depend on how long the ids are, and a resumed run of millions of documents starts at once.
 *
 * A skip needs both the id's and the content's 64-bit hashes to match: a false "already sent"
 * is about as likely as two random 128-bit values meeting. A hash shared by two ids only makes
 * the earlier one look unsent (sent again: an upsert).
 */
import { hash64 } from './string-hash.js';

/** Words per slot: id (2), content (2), fingerprint (1), stamp (1). */
const SLOT = 6;
const FIRST_CAPACITY = 1_024;
const MAX_LOAD = 0.8;
/** The fingerprint word of an acknowledgement recorded without one. */
const NO_FINGERPRINT = 0;
/** The stamp word of an acknowledgement of a document sent with its own time. */
const NO_STAMP = 0;

/** An acknowledgement's stamp: whole seconds, as runs send them (0: none). */
function stampWord(updatedAt: string | undefined): number {
  const ms = updatedAt === undefined ? Number.NaN : Date.parse(updatedAt);
  return Number.isFinite(ms) && ms >= 1000 ? Math.floor(ms / 1000) >>> 0 : NO_STAMP;
}

/** The 32-bit hash of a fingerprint, never NO_FINGERPRINT. */
function fingerprintWord(fingerprint: string): number {
  return hash64(fingerprint, 0x9e3779b9)[0] || 1;
}

export class AckIndex {
  #capacity = FIRST_CAPACITY;
  #table = new Uint32Array(FIRST_CAPACITY * SLOT);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Bytes the table holds. */
  get bytes(): number {
    return this.#table.byteLength;
  }

  /** Records `id`'s latest acknowledgement (replacing an earlier one). */
  set(
    id: string,
    contentHash: string,
    fingerprint: string | undefined,
    updatedAt?: string | undefined,
  ): void {
    if ((this.#size + 1) / this.#capacity > MAX_LOAD) this.#grow();
    const [a, b] = idWords(id);
    const [c, d] = hash64(contentHash);
    const fp = fingerprint === undefined ? NO_FINGERPRINT : fingerprintWord(fingerprint);
    const at = this.#slotOf(a, b);
    const t = this.#table;
    if (t[at + 1] === 0) this.#size++;
    t[at] = a;
    t[at + 1] = b;
    t[at + 2] = c;
    t[at + 3] = d;
    t[at + 4] = fp;
    t[at + 5] = stampWord(updatedAt);
  }

  /** True when `id`'s latest acknowledgement was of exactly this content. */
  has(id: string, contentHash: string): boolean {
    const at = this.#find(id);
    if (at < 0) return false;
    const [c, d] = hash64(contentHash);
    return this.#table[at + 2] === c && this.#table[at + 3] === d;
  }

  /** True when `id` has an acknowledgement, whatever its content. */
  hasId(id: string): boolean {
    return this.#find(id) >= 0;
  }

  /** True when `id`'s latest acknowledgement was recorded with this fingerprint. */
  hasFingerprint(id: string, fingerprint: string): boolean {
    const at = this.#find(id);
    return at >= 0 && this.#table[at + 4] === fingerprintWord(fingerprint);
  }

  /**
   * The `doc_updated_at` recorded with `id`'s latest acknowledgement, and whether that was of
   * this content; undefined when it was sent with a time of its own.
   */
  stampOf(
    id: string,
    contentHash: string,
  ): { updatedAt: string; sameContent: boolean } | undefined {
    const at = this.#find(id);
    const seconds = at < 0 ? NO_STAMP : (this.#table[at + 5] as number);
    if (seconds === NO_STAMP) return undefined;
    const [c, d] = hash64(contentHash);
    return {
      updatedAt: new Date(seconds * 1000).toISOString(),
      sameContent: this.#table[at + 2] === c && this.#table[at + 3] === d,
    };
  }

  #find(id: string): number {
    const [a, b] = idWords(id);
    const at = this.#slotOf(a, b);
    return this.#table[at + 1] === 0 ? -1 : at;
  }

  /** The slot holding id (a, b), else the empty slot where it would go (linear probing). */
  #slotOf(a: number, b: number): number {
    const t = this.#table;
    let slot = a % this.#capacity;
    for (;;) {
      const at = slot * SLOT;
      if (t[at + 1] === 0 || (t[at] === a && t[at + 1] === b)) return at;
      slot = slot + 1 === this.#capacity ? 0 : slot + 1;
    }
  }

  #grow(): void {
    const old = this.#table;
    this.#capacity = Math.ceil(this.#capacity * 1.5);
    this.#table = new Uint32Array(this.#capacity * SLOT);
    for (let at = 0; at < old.length; at += SLOT) {
      if (old[at + 1] === 0) continue;
      const to = this.#slotOf(old[at] as number, old[at + 1] as number);
      this.#table.set(old.subarray(at, at + SLOT), to);
    }
  }
}

/** An id's two words; the second is never 0, which marks an empty slot. */
function idWords(id: string): [number, number] {
  const [a, b] = hash64(id);
  return [a, b || 1];
}
