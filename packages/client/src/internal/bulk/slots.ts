/**
 * Request slots of a bulk run: at most `limit()` requests on the wire, the limit read at every
 * acquisition (the limiter moves it). Documents coming back from a retry wait here in order;
 * new documents are pulled only while no one waits (see pull-loop.ts).
 */
import type { AbortRegistry } from '../abort.js';

/** Whether a document holds a request slot now (the pull loop takes its first one). */
export interface SlotHold {
  held: boolean;
}

export class Slots {
  private used = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(private readonly limit: () => number) {}

  get inUse(): number {
    return this.used;
  }

  /** Documents waiting for a slot. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Takes a slot if one is free and no one waits for it. */
  tryAcquire(): boolean {
    if (this.waiters.length > 0 || this.used >= this.limit()) return false;
    this.used++;
    return true;
  }

  /**
   * Resolves with a slot taken; resolves without one when the run aborts (check its signal).
   * Registers with the run's registry, not one listener per waiter on its signal.
   */
  acquire(run: AbortRegistry): Promise<void> {
    if (this.tryAcquire() || run.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const grant = () => {
        unregister();
        this.used++;
        resolve();
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve();
      };
      this.waiters.push(grant);
      const unregister = run.add(onAbort);
    });
  }

  release(): void {
    this.used--;
    this.grant();
  }

  /** Hands free slots to waiters (also after the limit grew). */
  grant(): void {
    while (this.waiters.length > 0 && this.used < this.limit()) this.waiters.shift()?.();
  }
}
