// Pair deletions (`createDeletionAttempt`), asynchronous as on deployed servers: the pair is
// marked DELETING at once, and a timer later removes its documents, the pair, and its connector
// when no other pair uses it. Timers are unref'd and cleared on close; a pair found DELETING when
// the emulator starts (a restart during a deletion) is finished the same way.
import type { Store } from './store/index.js';

/** Milliseconds between a deletion attempt and the removal it starts. */
export const DEFAULT_DELETION_DELAY_MS = 30;

export class PairDeletions {
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly store: Store,
    readonly delayMs: number = DEFAULT_DELETION_DELAY_MS,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    if (!(Number.isFinite(delayMs) && delayMs >= 0)) {
      throw new RangeError(`deletionDelayMs must be a number >= 0 (got ${delayMs})`);
    }
  }

  /** Marks the pair DELETING and schedules its removal (once, however often it is asked). */
  start(pairId: number): void {
    this.store.pairs.setStatus(pairId, 'DELETING');
    this.schedule(pairId);
  }

  /** Schedules the removal of every pair the store holds as DELETING. */
  resume(): void {
    for (const pair of this.store.pairs.list()) {
      if (pair.status === 'DELETING') this.schedule(pair.id);
    }
  }

  private schedule(pairId: number): void {
    if (this.closed || this.timers.has(pairId)) return;
    const timer = setTimeout(() => {
      this.timers.delete(pairId);
      this.finish(pairId);
    }, this.delayMs);
    timer.unref();
    this.timers.set(pairId, timer);
  }

  /** Removes the pair if it is still being deleted (a reset may have replaced it since). */
  private finish(pairId: number): void {
    if (this.closed) return;
    try {
      if (this.store.pairs.get(pairId)?.status === 'DELETING') {
        this.store.pairs.deleteWithDocuments(pairId);
      }
    } catch (error) {
      this.onError(error);
    }
  }

  /** Number of deletions waiting for their timer. */
  get pending(): number {
    return this.timers.size;
  }

  /** Clears every timer; later requests schedule nothing. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
