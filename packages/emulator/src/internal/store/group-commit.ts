// Group commit: the writes requested during one turn of the event loop are written in one
// transaction (in request order), and each promise resolves only after that transaction has
// committed. Under concurrent load this writes each touched page once per batch instead of once
// per write. If the batch fails, each write is retried in its own transaction so one bad write
// cannot fail the others.

export interface GroupCommitWriter<I, R> {
  /** Writes every item in one transaction, all sharing the time `now`. */
  many(items: I[], now: string): R[];
  /** Writes one item in its own transaction (the retry of a failed batch). */
  one(item: I, now: string): R;
  /** The time a batch is written at. */
  now(): string;
  /** False once the database is closed: waiting writes are then refused. */
  isOpen(): boolean;
  /** Called after each batch with the results that were committed, before the promises resolve. */
  committed(results: R[]): void;
}

interface Pending<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<I, R> {
  private pending: Pending<I, R>[] = [];
  private flushScheduled = false;

  constructor(private readonly writer: GroupCommitWriter<I, R>) {}

  /** Queues a write for the next batch; resolves with its result once committed. */
  write(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    if (!this.writer.isOpen()) {
      for (const p of batch) p.reject(new Error('the emulator database is closed'));
      return;
    }
    const now = this.writer.now();
    let results: R[];
    try {
      results = this.writer.many(
        batch.map((p) => p.item),
        now,
      );
    } catch {
      this.writeEach(batch, now);
      return;
    }
    this.writer.committed(results);
    batch.forEach((p, i) => {
      p.resolve(results[i]!);
    });
  }

  /** The retry of a failed batch: one transaction per write. */
  private writeEach(batch: Pending<I, R>[], now: string): void {
    const results: R[] = [];
    for (const p of batch) {
      try {
        const result = this.writer.one(p.item, now);
        results.push(result);
        p.resolve(result);
      } catch (error) {
        p.reject(error);
      }
    }
    this.writer.committed(results);
  }
}
