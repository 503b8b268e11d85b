/**
 * Outages pause a bulk run instead of failing its documents (README, "Bulk ingestion: retries
 * and outages"). When nothing has succeeded for `pauseAfterMs` while requests kept failing, the
 * run pauses: no document is sent but one probe at a time, after a backoff that stays short
 * (the server's return is noticed within seconds). The first success resumes the run. A pause
 * longer than `maxOutageMs` stops it.
 */

import type { AbortRegistry } from '../abort.js';
import { sleep } from '../backoff.js';

export interface OutageOptions {
  /** No success for this long, with failures, is an outage. Default 5 s. */
  pauseAfterMs?: number | undefined;
  /** Longest pause before the run stops. Default 5 minutes. */
  maxOutageMs?: number | undefined;
  /** Longest wait between probes. Default 2 s. */
  maxProbeDelayMs?: number | undefined;
  /** Clock, for tests. */
  now?: (() => number) | undefined;
  /** Told when the run pauses and resumes. */
  onChange?: ((paused: boolean, info: { since: number; reason: string }) => void) | undefined;
}

/** Failures since the last success before a quiet spell can count as an outage. */
const MIN_FAILURES = 3;

export class OutageGate {
  private readonly pauseAfterMs: number;
  readonly maxOutageMs: number;
  private readonly maxProbeDelayMs: number;
  private readonly now: () => number;
  private readonly onChange: OutageOptions['onChange'];
  private lastSuccess: number;
  private failures = 0;
  private pausedAt: number | undefined;
  private pausedTotal = 0;
  private probing = false;
  private probes = 0;
  private lastReason = '';
  private waiters: Array<() => void> = [];

  constructor(options: OutageOptions = {}) {
    this.pauseAfterMs = options.pauseAfterMs ?? 5_000;
    this.maxOutageMs = options.maxOutageMs ?? 5 * 60_000;
    this.maxProbeDelayMs = options.maxProbeDelayMs ?? 2_000;
    this.now = options.now ?? Date.now;
    this.onChange = options.onChange;
    this.lastSuccess = this.now();
  }

  get paused(): boolean {
    return this.pausedAt !== undefined;
  }

  /** When the current pause began (ms since epoch), if paused. */
  get pausedSince(): number | undefined {
    return this.pausedAt;
  }

  /** Why the run paused: the last failure's message. */
  get reason(): string {
    return this.lastReason;
  }

  /** Time spent paused so far (the current pause included): not counted in retry budgets. */
  pausedMs(): number {
    return this.pausedTotal + (this.pausedAt === undefined ? 0 : this.now() - this.pausedAt);
  }

  /** True once the current pause has lasted longer than `maxOutageMs`. */
  exhausted(): boolean {
    return this.pausedAt !== undefined && this.now() - this.pausedAt > this.maxOutageMs;
  }

  /** What a run says when it stops because the current pause outlasted `maxOutageMs`. */
  stopMessage(): string {
    const minutes = Math.round(this.maxOutageMs / 6000) / 10;
    return `Stopped: the server has not answered successfully for more than ${minutes} min (last error: ${this.lastReason}). Documents not yet stored were not sent; re-run with the same journal to resume.`;
  }

  success(): void {
    this.lastSuccess = this.now();
    this.failures = 0;
    if (this.pausedAt === undefined) return;
    const since = this.pausedAt;
    this.pausedTotal += this.now() - since;
    this.pausedAt = undefined;
    this.probing = false;
    this.probes = 0;
    this.onChange?.(false, { since, reason: this.lastReason });
    this.release();
  }

  /** A retryable failure (connection, time-out, 5xx, 429). */
  failure(reason: string): void {
    this.failures++;
    this.lastReason = reason;
    if (this.pausedAt !== undefined) {
      this.probing = false;
      this.release(); // the next waiter probes, after its backoff
      return;
    }
    const quiet = this.now() - this.lastSuccess;
    if (quiet >= this.pauseAfterMs && this.failures >= MIN_FAILURES) {
      this.pausedAt = this.now();
      this.onChange?.(true, { since: this.pausedAt, reason });
    }
  }

  /**
   * Resolves when a document may be sent: at once while running; while paused, when it is this
   * document's turn to probe (after the probe backoff). Rejects when the run aborts.
   */
  async admit(run: AbortRegistry): Promise<void> {
    for (;;) {
      if (run.signal.aborted) throw run.signal.reason;
      if (this.pausedAt === undefined) return;
      if (!this.probing) {
        this.probing = true;
        const delay = Math.min(this.maxProbeDelayMs, 250 * 2 ** this.probes++);
        await sleep(delay, run.signal, run);
        return; // this document is the probe (or the run resumed meanwhile)
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          unregister();
          resolve();
        };
        this.waiters.push(done);
        const unregister = run.add(done);
      });
    }
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
