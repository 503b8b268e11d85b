/**
 * The items a repair re-sends, handed from the verification to `ingestMany` as they are found: an
 * async iterable the run pulls from, with room for a few items only, so a verification that finds
 * failures faster than they are re-sent waits instead of holding them all.
 */
import type { IngestInput } from '@kis/client';

export class RepairFeed implements AsyncIterable<IngestInput> {
  readonly #items: IngestInput[] = [];
  #closed = false;
  #wakeReader: (() => void) | undefined;
  #wakeWriters: (() => void)[] = [];
  /** Items pushed so far. */
  pushed = 0;

  constructor(private readonly room = 64) {}

  /** Adds an item; resolves once there is room for the next. */
  async push(item: IngestInput): Promise<void> {
    this.#items.push(item);
    this.pushed++;
    this.#wakeReader?.();
    while (this.#items.length >= this.room && !this.#closed) {
      await new Promise<void>((resolve) => this.#wakeWriters.push(resolve));
    }
  }

  /** No more items: the run ends once it has taken those left. */
  close(): void {
    this.#closed = true;
    this.#wakeReader?.();
    for (const wake of this.#wakeWriters.splice(0)) wake();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<IngestInput, void, undefined> {
    for (;;) {
      const item = this.#items.shift();
      if (item !== undefined) {
        for (const wake of this.#wakeWriters.splice(0)) wake();
        yield item;
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => {
        this.#wakeReader = resolve;
      });
      this.#wakeReader = undefined;
    }
  }
}
