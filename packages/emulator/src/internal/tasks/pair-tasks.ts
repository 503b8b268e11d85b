// The background work that deployed servers hand to their task workers: index attempts, prunes
// (asked for, or due by `prune_freq`), deletions, the syncs of document sets and user groups,
// and the ports of a model switch. One round moves all of them on by the emulator's clock
// (`now`); after a round the worker sleeps until the next thing is due, or until a request
// changes something (`poke`). Rounds never overlap, the timer is unref'd, and with nothing due
// the worker holds no timer at all. Tests can stop the timer (`pause`) and run rounds themselves
// (`tick`).
import type { IndexWriter } from '../index-writer.js';
import type { Store } from '../store/index.js';
import { advanceDeletions } from './deletion.js';
import { advanceAttempts, scheduleAttempts } from './indexing.js';
import { advanceSwitch } from './model-switch.js';
import { type AttemptOutcome, parseAttemptOutcome } from './outcomes.js';
import { advancePrunes, scheduleAutoPrunes } from './pruning.js';
import { advanceSyncs } from './syncs.js';
import { earliest, type TaskContext, type TaskTiming } from './task-context.js';

export interface PairTaskOptions {
  /** How index attempts end: `succeed` (default), `fail`, `hang` or `errors`. */
  outcome?: AttemptOutcome;
  /** Milliseconds an attempt waits `not_started`. Default 100. */
  startDelayMs?: number;
  /** Milliseconds an attempt runs. Default 1000. */
  durationMs?: number;
  /** Milliseconds a prune runs. Default 500. */
  pruneMs?: number;
  /** Milliseconds a document set's or user group's sync takes. Default 1000. */
  syncMs?: number;
  /** Milliseconds one port of a model switch takes. Default 500. */
  portMs?: number;
  /** Start without the timer: nothing moves until `resume()` or `tick()`. Default false. */
  paused?: boolean;
}

/** Control over the background work on pairs (`emulator.tasks`). */
export interface PairTasksControl {
  /** Stops the timer: attempts, prunes and deletions stay where they are until `resume()`. */
  pause(): void;
  resume(): void;
  readonly paused: boolean;
  /** Runs one round now, by the emulator's clock (also while paused). */
  tick(): void;
  /** Sets how attempts end from now on: every pair's, or one pair's (which then ignores the others'). */
  setAttemptOutcome(outcome: AttemptOutcome, ccPairId?: number): void;
  /** How the attempts of a pair (or, without one, of every pair without its own) end. */
  attemptOutcome(ccPairId?: number): AttemptOutcome;
}

export const DEFAULT_TIMING: Readonly<Omit<TaskTiming, 'deletionDelayMs'>> = Object.freeze({
  startDelayMs: 100,
  durationMs: 1000,
  pruneMs: 500,
  syncMs: 1000,
  portMs: 500,
});

/** The shortest wait between two rounds, so a round that is due at once never spins. */
const MIN_WAIT_MS = 2;
/** The longest sleep: due times are read from the clock again at least this often. */
const MAX_WAIT_MS = 60_000;

function checkTiming(timing: TaskTiming): void {
  for (const [name, value] of Object.entries(timing)) {
    if (!(Number.isFinite(value) && value >= 0)) {
      throw new RangeError(`${name} must be a number >= 0 (got ${value})`);
    }
  }
}

export class PairTasks implements PairTasksControl {
  private timer: NodeJS.Timeout | undefined;
  private isPaused: boolean;
  private closed = false;
  private defaultOutcome: AttemptOutcome;
  private readonly startOutcome: AttemptOutcome;
  private readonly outcomes = new Map<number, AttemptOutcome>();
  /** What the rounds share (the model-switch control acts on it too). */
  readonly context: TaskContext;

  constructor(
    private readonly store: Store,
    writer: IndexWriter,
    private readonly clock: () => Date,
    timing: TaskTiming,
    options: PairTaskOptions = {},
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    checkTiming(timing);
    this.startOutcome = parseAttemptOutcome(options.outcome ?? 'succeed', 'attempts outcome');
    this.defaultOutcome = this.startOutcome;
    this.isPaused = options.paused ?? false;
    this.context = { store, writer, timing, outcomeOf: (id) => this.attemptOutcome(id) };
  }

  /** The emulator's time now. */
  now(): Date {
    return this.clock();
  }

  get paused(): boolean {
    return this.isPaused;
  }

  /** Runs a round soon: a request changed something the rounds act on. */
  poke(): void {
    this.wait(0);
  }

  tick(): void {
    if (this.closed || !this.store.open) return;
    let next: number | undefined;
    try {
      next = this.round(this.clock());
    } catch (error) {
      this.onError(error);
    }
    this.waitUntil(next);
  }

  pause(): void {
    this.isPaused = true;
    this.clearTimer();
  }

  resume(): void {
    this.isPaused = false;
    this.poke();
  }

  setAttemptOutcome(outcome: AttemptOutcome, ccPairId?: number): void {
    const checked = parseAttemptOutcome(outcome, 'attempt outcome');
    if (ccPairId === undefined) {
      this.defaultOutcome = checked;
      this.outcomes.clear();
    } else {
      this.outcomes.set(ccPairId, checked);
    }
    this.poke(); // a hanging attempt may now end
  }

  attemptOutcome(ccPairId?: number): AttemptOutcome {
    return (
      (ccPairId === undefined ? undefined : this.outcomes.get(ccPairId)) ?? this.defaultOutcome
    );
  }

  /** After the store's reset: the outcomes as at start (pair ids are given anew), then a round. */
  reset(): void {
    this.defaultOutcome = this.startOutcome;
    this.outcomes.clear();
    this.poke();
  }

  /** Stops for good (before the store closes). */
  close(): void {
    this.closed = true;
    this.clearTimer();
  }

  /** Deletions first (they stop work), then attempts, new attempts, prunes, syncs and ports. */
  private round(now: Date): number | undefined {
    let next = advanceDeletions(this.context, now);
    next = earliest(next, advanceAttempts(this.context, now));
    next = earliest(next, scheduleAttempts(this.context, now));
    next = earliest(next, scheduleAutoPrunes(this.context, now));
    next = earliest(next, advancePrunes(this.context, now));
    next = earliest(next, advanceSyncs(this.context, now));
    return earliest(next, advanceSwitch(this.context, now));
  }

  private waitUntil(due: number | undefined): void {
    if (due !== undefined) this.wait(due - this.clock().getTime());
  }

  private wait(ms: number): void {
    if (this.closed || this.isPaused) return;
    this.clearTimer();
    const delay = Math.min(Math.max(ms, MIN_WAIT_MS), MAX_WAIT_MS);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.tick();
    }, delay);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
