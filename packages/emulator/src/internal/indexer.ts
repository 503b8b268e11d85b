// The background indexing worker: while documents are queued, every `intervalMs` it writes a
// bounded batch of them into the search index in one transaction (index-writer.ts). Batches are
// small so a tick never holds the event loop long, and the timer is unref'd so it never keeps a
// process alive on its own. With nothing queued it sleeps (no timer) until the store queues a
// document: an idle emulator spends no CPU.
import type { IndexWriter } from './index-writer.js';
import type { Store } from './store/index.js';

export interface IndexerOptions {
  /** Milliseconds between batches. Default 5. */
  intervalMs?: number;
  /** Most documents moved per batch. Default 500. */
  batchSize?: number;
  /** Start paused (documents stay `queued` until `resume()` or `runOnce()`). Default false. */
  paused?: boolean;
}

/** Control over the emulator's background indexing worker. */
export interface IndexerControl {
  /** Stops moving documents to `indexed` until `resume()`. */
  pause(): void;
  /** Restarts the worker after `pause()`. */
  resume(): void;
  readonly paused: boolean;
  /** True when nothing was left to index: the worker waits, without a timer, for a document. */
  readonly sleeping: boolean;
  /** Runs one batch now; returns how many documents were indexed. */
  runOnce(): number;
  /** Indexes every queued document now; returns how many were indexed. */
  drain(): number;
  /** Resolves once no document is queued (polls on the worker's interval). */
  idle(options?: { timeoutMs?: number }): Promise<void>;
}

export class Indexer implements IndexerControl {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private isPaused: boolean;
  readonly intervalMs: number;
  readonly batchSize: number;

  constructor(
    private readonly store: Store,
    private readonly writer: IndexWriter,
    options: IndexerOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 5;
    this.batchSize = options.batchSize ?? 500;
    if (!(this.intervalMs > 0)) throw new RangeError('indexer intervalMs must be > 0');
    if (!(Number.isInteger(this.batchSize) && this.batchSize > 0)) {
      throw new RangeError('indexer batchSize must be a positive integer');
    }
    this.isPaused = options.paused ?? false;
    store.documents.onQueued(() => this.start());
    if (!this.isPaused) this.start();
  }

  get paused(): boolean {
    return this.isPaused;
  }

  get sleeping(): boolean {
    return this.timer === undefined && !this.isPaused && !this.stopped;
  }

  private start(): void {
    if (this.timer !== undefined || this.stopped || this.isPaused) return;
    this.timer = setInterval(() => {
      if (this.runOnce() === 0) this.sleep();
    }, this.intervalMs);
    this.timer.unref();
  }

  private sleep(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  pause(): void {
    this.isPaused = true;
    this.sleep();
  }

  resume(): void {
    this.isPaused = false;
    this.start();
  }

  runOnce(): number {
    if (this.stopped || !this.store.open) return 0;
    return this.writer.indexQueued(this.batchSize);
  }

  drain(): number {
    let total = 0;
    for (;;) {
      const moved = this.runOnce();
      total += moved;
      if (moved < this.batchSize) return total;
    }
  }

  async idle(options: { timeoutMs?: number } = {}): Promise<void> {
    const deadline = Date.now() + (options.timeoutMs ?? 10_000);
    while (this.store.documents.indexCounts().queued > 0) {
      if (this.isPaused) throw new Error('indexer is paused: documents stay queued');
      if (Date.now() > deadline) throw new Error('timed out waiting for queued documents');
      await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
    }
  }

  /** Stops the worker for good (before the store closes). */
  stop(): void {
    this.stopped = true;
    this.pause();
  }
}
