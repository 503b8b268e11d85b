/**
 * Short-lived entries of a long-lived owner (a bulk run's aborts, its sends in flight), in an
 * array whose freed slots are emptied and reused. A long-lived Set or Map that gains and loses
 * an entry per request made V8's young collections keep every request's objects until a full
 * collection, about 9 KB a document (ARCHITECTURE.md, "Memory on this path").
 */
export class Registrations<T> {
  readonly #slots: (T | undefined)[] = [];
  readonly #free: number[] = [];
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Holds `entry` until the returned removal runs (running it again does nothing). */
  add(entry: T): () => void {
    const slots = this.#slots;
    const at = this.#free.pop() ?? slots.length;
    slots[at] = entry;
    this.#size++;
    return () => {
      if (slots[at] !== entry) return;
      slots[at] = undefined;
      this.#free.push(at);
      this.#size--;
    };
  }

  /** The entries held now, as a copy (going through them may remove some). */
  values(): T[] {
    return this.#slots.filter((entry): entry is T => entry !== undefined);
  }
}
