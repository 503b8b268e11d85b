/**
 * What an incremental source keeps between runs (an SQL source's cursor, a git source's last
 * commit), in the journal beside the acknowledgements it depends on: a state is recorded only
 * after a run stored what it covers, so it never says more was sent than was.
 */

/** A JSON value a state is made of. */
export type StateValue =
  | string
  | number
  | boolean
  | null
  | readonly StateValue[]
  | { readonly [key: string]: StateValue };

/** A source's state: a small JSON object, versioned by the source that wrote it. */
export type SourceState = { readonly v: number } & { readonly [key: string]: StateValue };

/** Where states are kept: `openJournal`'s `FileJournal` is one. */
export interface SourceStateStore {
  /** The state last recorded under `key`, or undefined. */
  stateOf(key: string): unknown | Promise<unknown>;
  recordState(key: string, value: SourceState): void | Promise<void>;
}

/** What a source learns of the run that sent its items, to decide whether its state may move on. */
export interface RunOutcome {
  /** Documents that failed (the source's own refusals included). */
  failed: number;
  /** Documents not stored because the run was cancelled or stopped. */
  aborted: number;
  /** Set when the run stopped before the end (an outage, a refused key). */
  stopped?: unknown;
  /** True when the run was cancelled. */
  cancelled?: boolean | undefined;
}
