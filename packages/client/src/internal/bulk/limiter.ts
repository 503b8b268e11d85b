/**
 * The concurrency limit of a bulk run, adapted to the server (README, "How bulk ingestion picks
 * its concurrency"). Two signals, each read once per window of completed requests:
 *
 * - latency, as in TCP Vegas and Netflix's gradient limiters: the window's median round trip
 *   against the lowest of recent windows' 10th percentiles. Requests that queue take longer, so a
 *   median above `tolerance` times that base shrinks the limit in proportion; otherwise it
 *   grows by about √limit (doubling while it is still far from any signal: slow start).
 * - refusals (429, 503, time-outs) that grow with load: the window's refusal rate against the
 *   median rate of recent windows (the least of them was biased low by chance alone). Random faults refuse at about the same rate at every level,
 *   so only a rate well above that floor shrinks the limit; a constant rate holds it.
 *
 * Connection failures and other errors say nothing about load and are ignored here (a run
 * pauses for them when nothing succeeds: see outage.ts).
 */

export interface LimiterOptions {
  /** Most requests in flight (the ceiling). */
  max: number;
  /** Fewest requests in flight (the floor). Default 1. */
  min?: number | undefined;
  /** Where to start. Default min(max, 8). */
  initial?: number | undefined;
  /** A median round trip up to this many times the least one is not queueing. Default 1.5. */
  tolerance?: number | undefined;
}

/** What one window of requests showed, for logs and tests. */
export interface LimiterWindow {
  limit: number;
  medianRttMs: number;
  baseRttMs: number;
  refusalRate: number;
  refusalFloor: number;
  reason: 'slow-start' | 'grow' | 'latency' | 'refusals' | 'hold';
}

/** Samples of least round trips kept, by window: the baseline follows a server that slows for good. */
const BASE_WINDOWS = 30;
/** Windows whose refusal rates make the floor. */
const FLOOR_WINDOWS = 10;
/** A refusal rate this far above the floor is load. */
const REFUSAL_MARGIN = 0.2;
/**
 * The floor never counts more than this as random: a run that starts far past the knee sees only
 * high rates, and they must still read as load.
 */
const MAX_FLOOR = 0.3;
/**
 * Round trips within this many ms of the tolerated median are not queueing: on a fast server
 * (a few ms per call) timer and event-loop jitter alone would read as latency growth.
 */
const LATENCY_SLACK_MS = 5;
/** Fewest completions in a window (a small limit still judges on enough requests). */
const MIN_WINDOW = 24;

export class ConcurrencyLimiter {
  readonly max: number;
  readonly min: number;
  private readonly tolerance: number;
  private value: number;
  private slowStart = true;
  private rtts: number[] = [];
  private refusals = 0;
  private readonly bases: number[] = [];
  private readonly rates: number[] = [];
  /** The last window's figures, for progress lines and tests. */
  last: LimiterWindow | undefined;

  constructor(options: LimiterOptions) {
    this.max = options.max;
    this.min = Math.min(options.min ?? 1, options.max);
    this.tolerance = options.tolerance ?? 1.5;
    this.value = clamp(options.initial ?? Math.min(options.max, 8), this.min, this.max);
  }

  /** Requests allowed in flight now. */
  get limit(): number {
    return Math.floor(this.value);
  }

  /** A request answered 2xx after `rttMs`. */
  success(rttMs: number): void {
    this.rtts.push(rttMs);
    this.maybeAdjust();
  }

  /** A request refused for load: 429, 503 or a time-out. */
  refused(): void {
    this.refusals++;
    this.maybeAdjust();
  }

  private maybeAdjust(): void {
    const n = this.rtts.length + this.refusals;
    if (n < Math.max(MIN_WINDOW, this.limit)) return;
    this.adjust();
  }

  private adjust(): void {
    const rate = this.refusals / (this.rtts.length + this.refusals);
    const sorted = this.rtts.sort((a, b) => a - b);
    const median = sorted.length > 0 ? (sorted[sorted.length >> 1] as number) : 0;
    // a low percentile, not the least: one lucky round trip would set the bar for 30 windows
    if (sorted.length > 0)
      push(this.bases, sorted[Math.floor(sorted.length / 10)] as number, BASE_WINDOWS);
    push(this.rates, rate, FLOOR_WINDOWS);
    const base = Math.min(...this.bases);
    const floor = Math.min(MAX_FLOOR, middle(this.rates));
    let reason: LimiterWindow['reason'];
    if (rate > floor + REFUSAL_MARGIN) {
      // refusals grew with load: step back gently (refused requests come back fast, so windows
      // full of refusals come often and the steps add up quickly)
      reason = 'refusals';
      this.slowStart = false;
      this.value *= Math.max(0.75, 1 - (rate - floor) / 2);
    } else if (sorted.length > 0 && median > this.tolerance * base + LATENCY_SLACK_MS) {
      reason = 'latency';
      this.slowStart = false;
      this.value *= Math.max(0.5, (this.tolerance * base + LATENCY_SLACK_MS) / median);
    } else if (this.slowStart) {
      reason = 'slow-start';
      this.value *= 2;
    } else {
      reason = this.value >= this.max ? 'hold' : 'grow';
      this.value += Math.sqrt(this.value);
    }
    this.value = clamp(this.value, this.min, this.max);
    if (this.value >= this.max) this.slowStart = false;
    this.last = {
      limit: this.limit,
      medianRttMs: median,
      baseRttMs: Number.isFinite(base) ? base : 0,
      refusalRate: rate,
      refusalFloor: floor,
      reason,
    };
    this.rtts = [];
    this.refusals = 0;
  }
}

function middle(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

function push(list: number[], v: number, keep: number): void {
  list.push(v);
  if (list.length > keep) list.shift();
}
