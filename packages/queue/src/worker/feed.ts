/**
 * The source of a worker's long-lived `kis.ingestMany` run: an async iterable that the worker's
 * active jobs feed one document at a time, each `send` resolving with that document's result
 * (from the run's `onResult`). So every job's documents share one engine: its retries, time-outs,
 * hedges, adaptive limit and outage pause (README, "Workers").
 */
import type { IngestInput, IngestResult } from '@kis/client';

interface Waiting {
  item: IngestInput;
  resolve: (result: IngestResult) => void;
}

/** A result for a document the run never took or could not finish. */
function abortedResult(item: IngestInput, index: number): IngestResult {
  const ref = (item as { ref?: unknown }).ref;
  return {
    index,
    ref: typeof ref === 'string' ? ref : undefined,
    documentId: null,
    ccPairId: null,
    status: 'aborted',
    attempts: 0,
  };
}

export class EngineFeed implements AsyncIterable<IngestInput> {
  private readonly queued: Waiting[] = [];
  private readonly pending = new Map<number, Waiting>();
  private nextIndex = 0;
  private pull: ((r: IteratorResult<IngestInput>) => void) | undefined;
  private ended = false;

  /** Documents handed to the run and not yet answered. */
  get inEngine(): number {
    return this.pending.size;
  }

  /** Hands a document to the run; resolves with its result (`aborted` if the run ends first). */
  send(item: IngestInput): Promise<IngestResult> {
    return new Promise((resolve) => {
      if (this.ended) {
        resolve(abortedResult(item, -1));
        return;
      }
      const waiting = { item, resolve };
      const pull = this.pull;
      if (pull) {
        this.pull = undefined;
        this.handOver(waiting, pull);
      } else this.queued.push(waiting);
    });
  }

  /** The run's `onResult`. */
  readonly onResult = (result: IngestResult): void => {
    const waiting = this.pending.get(result.index);
    if (!waiting) return;
    this.pending.delete(result.index);
    waiting.resolve(result);
  };

  /** The run is over: what it has not answered ends `aborted`, and later sends too. */
  end(): void {
    this.ended = true;
    for (const [index, waiting] of this.pending)
      waiting.resolve(abortedResult(waiting.item, index));
    this.pending.clear();
    for (const waiting of this.queued.splice(0)) waiting.resolve(abortedResult(waiting.item, -1));
    const pull = this.pull;
    this.pull = undefined;
    pull?.({ done: true, value: undefined });
  }

  private handOver(waiting: Waiting, pull: (r: IteratorResult<IngestInput>) => void): void {
    this.pending.set(this.nextIndex++, waiting);
    pull({ done: false, value: waiting.item });
  }

  [Symbol.asyncIterator](): AsyncIterator<IngestInput> {
    return {
      next: () =>
        new Promise<IteratorResult<IngestInput>>((resolve) => {
          if (this.ended) {
            resolve({ done: true, value: undefined });
            return;
          }
          const waiting = this.queued.shift();
          if (waiting) this.handOver(waiting, resolve);
          else this.pull = resolve;
        }),
      // the run stops reading (stopped or cancelled): nothing more will be taken
      return: async () => {
        this.ended = true;
        for (const waiting of this.queued.splice(0)) {
          waiting.resolve(abortedResult(waiting.item, -1));
        }
        return { done: true, value: undefined };
      },
    };
  }
}
