/**
 * The results a run's `for await` loop has yet to read, in completion order: an array read from
 * a moving head, compacted as it is read, so a slow reader costs only the results it has not read.
 */
import type { IngestResult } from '../../ingest.js';

export class ResultQueue {
  private readonly results: (IngestResult | undefined)[] = [];
  private head = 0;
  private wakeReader: (() => void) | undefined;
  private ended: { failure: unknown } | undefined;

  /** `onRead`: a result was read, so the run may pull another document. */
  constructor(private readonly onRead: () => void) {}

  /** Results not yet read (the run pulls no more while too many wait). */
  get unread(): number {
    return this.results.length - this.head;
  }

  push(result: IngestResult): void {
    this.results.push(result);
    this.wake();
  }

  /** No more results: the reader ends, with the run's failure if it failed. */
  end(failure: unknown): void {
    this.ended = { failure };
    this.wake();
  }

  async next(): Promise<IteratorResult<IngestResult>> {
    for (;;) {
      if (this.head < this.results.length) return { done: false, value: this.take() };
      if (this.ended) {
        if (this.ended.failure !== undefined) throw this.ended.failure;
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => {
        this.wakeReader = resolve;
      });
    }
  }

  private take(): IngestResult {
    const value = this.results[this.head] as IngestResult;
    this.results[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.results.length) {
      this.results.splice(0, this.head);
      this.head = 0;
    }
    this.onRead();
    return value;
  }

  private wake(): void {
    const wake = this.wakeReader;
    if (wake) {
      this.wakeReader = undefined;
      wake();
    }
  }
}
