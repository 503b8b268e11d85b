/**
 * The queue-wide pause for overload (overload.ts), as one worker sees it: set with BullMQ's
 * manual rate limit (no job starts anywhere until it expires) and read back from Redis, at most
 * every half second, before a job sends its next document.
 */
import type { Queue, Worker } from 'bullmq';
import { sleep } from '../sleep.js';

const REFRESH_MS = 500;

export class QueueBackoff {
  private until = 0;
  private checkedAt = 0;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly queue: Queue,
    private readonly worker: () => Worker | undefined,
  ) {}

  /** Pauses the queue for `ms`, unless a longer pause is on already. */
  async pause(ms: number): Promise<void> {
    this.until = Math.max(this.until, Date.now() + ms);
    const ttl = await this.queue.getRateLimitTtl().catch(() => 0);
    if (ttl >= ms) return;
    await this.worker()?.rateLimit(ms);
  }

  /** Resolves when the queue is not paused (or `signal` aborts). */
  async wait(signal: AbortSignal): Promise<void> {
    for (;;) {
      if (signal.aborted) return;
      const now = Date.now();
      if (now - this.checkedAt >= REFRESH_MS) {
        this.checking ??= this.refresh().finally(() => {
          this.checking = undefined;
        });
        await this.checking;
      }
      const left = this.until - Date.now();
      if (left <= 0) return;
      await sleep(Math.min(left, REFRESH_MS), signal);
    }
  }

  private async refresh(): Promise<void> {
    this.checkedAt = Date.now();
    const ttl = await this.queue.getRateLimitTtl().catch(() => 0);
    if (ttl > 0) this.until = Math.max(this.until, Date.now() + ttl);
  }
}
