/**
 * Hedged sends (README, "Slow answers"): a request still unanswered long after the run's usual
 * answers gets one more copy of the same document (an upsert by its id, so harmless), and the
 * first answer wins, as in "The Tail at Scale". A server slow for every call is never hedged:
 * the wait is measured against its own recent answers. Hedges are budgeted, so a run never
 * sends much more than it would without them.
 */
import type { AbortRegistry } from '../abort.js';
import { Registrations } from '../registrations.js';

/** Recent answer times kept to judge what "long" means. */
const SAMPLES = 256;
/** Fewest answers seen before any hedge. */
const MIN_SAMPLES = 32;
/** A send is hedged after this many times the 95th percentile of recent answers... */
const P95_FACTOR = 4;
/** ...and never before this. */
export const MIN_HEDGE_MS = 250;
/**
 * The hedge budget: up to BURST saved, refilled by RATE per send and by PER_SECOND (so a run
 * whose every slot waits on a slow answer, sending nothing, still gets its hedges). A budget of
 * 10 and one a second stalled runs with 1 % of 30 s answers: slow sends beyond the 10 held their
 * slots and the run's tail waited for tokens, one a second (bench:faults (a), README).
 */
const BURST = 50;
const RATE = 0.05;
const PER_SECOND = 5;
/** How often sends in flight are looked at. */
const SWEEP_MS = 200;

/** Copies of one document that may be on the wire at once (the send and its hedges). */
const MAX_COPIES = 3;

/** One send that may be hedged: when its latest copy went out, and what to do when it is late. */
interface InFlight {
  lastSentAt: number;
  copies: number;
  readonly hedge: (rearm: () => void) => void;
}

export class Hedger {
  private readonly samples: number[] = [];
  private next = 0;
  private tokens = BURST;
  private refilledAt = performance.now();
  private readonly inFlight = new Registrations<InFlight>();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Hedges sent so far. */
  sent = 0;

  /** An answer came after `ms`. */
  record(ms: number): void {
    if (this.samples.length < SAMPLES) this.samples.push(ms);
    else this.samples[this.next] = ms;
    this.next = (this.next + 1) % SAMPLES;
  }

  /** How long a send may take before it is hedged; undefined while too little is known. */
  thresholdMs(): number | undefined {
    if (this.samples.length < MIN_SAMPLES) return undefined;
    const sorted = [...this.samples].sort((a, b) => a - b);
    const p95 = sorted[Math.floor(sorted.length * 0.95)] as number;
    return Math.max(MIN_HEDGE_MS, P95_FACTOR * p95);
  }

  /**
   * Watches one send; `hedge` is called each time its latest copy is late and the budget allows
   * (a hedge can be slow too), up to MAX_COPIES on the wire; `rearm` says a hedge's copy failed.
   */
  watch(hedge: (rearm: () => void) => void): () => void {
    this.tokens = Math.min(BURST, this.tokens + RATE);
    const remove = this.inFlight.add({ lastSentAt: performance.now(), copies: 1, hedge });
    this.timer ??= setInterval(() => this.sweep(), SWEEP_MS);
    this.timer.unref?.();
    return () => {
      remove();
      if (this.inFlight.size === 0) this.stop();
    };
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private sweep(): void {
    const threshold = this.thresholdMs();
    if (threshold === undefined) return;
    const now = performance.now();
    this.tokens = Math.min(BURST, this.tokens + ((now - this.refilledAt) / 1000) * PER_SECOND);
    this.refilledAt = now;
    for (const entry of this.inFlight.values()) {
      if (this.tokens < 1) return;
      if (entry.copies >= MAX_COPIES || now - entry.lastSentAt < threshold) continue;
      entry.copies++;
      entry.lastSentAt = now;
      this.tokens--;
      this.sent++;
      entry.hedge(() => {
        entry.copies--;
      });
    }
  }
}

/** A registry of its own for one send, so a losing copy can be aborted alone. */
export function ownRegistry(parent: AbortRegistry): { registry: AbortRegistry; abort(): void } {
  const own = new Registrations<() => void>();
  return {
    registry: {
      signal: parent.signal,
      add: (abort) => {
        const removeOwn = own.add(abort);
        const removeParent = parent.add(abort);
        return () => {
          removeOwn();
          removeParent();
        };
      },
    },
    abort: () => {
      for (const abort of own.values()) abort();
    },
  };
}
