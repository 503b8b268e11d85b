// What the background rounds (index attempts, prunes, deletions, syncs, model switches) share:
// the store, the index writer, their timing and the outcome of each pair's attempts.
import type { IndexWriter } from '../index-writer.js';
import type { Store } from '../store/index.js';
import type { AttemptOutcome } from './outcomes.js';

export interface TaskTiming {
  /** Milliseconds an index attempt waits `not_started` before a worker takes it. */
  startDelayMs: number;
  /** Milliseconds an index attempt runs. */
  durationMs: number;
  /** Milliseconds a prune runs. */
  pruneMs: number;
  /** Milliseconds each phase of a deletion (waiting, cleaning up) lasts at least. */
  deletionDelayMs: number;
  /** Milliseconds a document set's or user group's sync takes. */
  syncMs: number;
  /** Milliseconds one port of a model switch takes. */
  portMs: number;
}

export interface TaskContext {
  store: Store;
  /** Writes the index: ports, re-stamps after syncs, prunes and deletions. */
  writer: IndexWriter;
  timing: TaskTiming;
  /** How the attempts of a pair end now. */
  outcomeOf(pairId: number): AttemptOutcome;
}

/** The earlier of two due times (epoch milliseconds), either possibly undefined. */
export function earliest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
