/**
 * Facts about index attempts, a pair's indexing runs (docs/deployed-servers.md, "Operating
 * connectors"). The values are the spec's `IndexingStatus`.
 */

export const INDEXING_STATUSES = Object.freeze([
  'not_started',
  'in_progress',
  'success',
  'canceled',
  'interrupted',
  'failed',
  'completed_with_errors',
] as const);

export type IndexingStatus = (typeof INDEXING_STATUSES)[number];

/**
 * Attempts waiting or running. A pair has at most one: run once skips a pair that has one, a
 * pause or a deletion cancels it (it ends `canceled`).
 */
export const RUNNING_ATTEMPT_STATUSES: readonly IndexingStatus[] = Object.freeze([
  'not_started',
  'in_progress',
]);

/** Attempts that count as a success: `last_indexed` is the start of the newest of them. */
export const SUCCESSFUL_ATTEMPT_STATUSES: readonly IndexingStatus[] = Object.freeze([
  'success',
  'completed_with_errors',
]);

export function isAttemptRunning(status: string | null): boolean {
  return status !== null && (RUNNING_ATTEMPT_STATUSES as readonly string[]).includes(status);
}

export function isAttemptSuccessful(status: string | null): boolean {
  return status !== null && (SUCCESSFUL_ATTEMPT_STATUSES as readonly string[]).includes(status);
}

/**
 * A pair's attempts newest first, each field descending: by creation, then by id (two can share a
 * millisecond). The pair detail takes its newest so (compat-lifecycle §1). The listing sorts by
 * start (§2): the same order, as a pair runs one attempt at a time and servers stamp a start on
 * an attempt they cancel before it ran.
 */
export const NEWEST_ATTEMPT_FIRST = Object.freeze(['time_created', 'id'] as const);

/** Failed attempts in a row that put a pair in repeated error (1 when it has no `refresh_freq`). */
export const REPEATED_ERROR_ATTEMPTS = 5;

/**
 * A pair's `in_repeated_error_state` once an attempt ended: false after a successful attempt,
 * true when the newest attempts (5, or 1 without `refresh_freq`) all `failed`, else unchanged.
 * `newestFirst` are the statuses of the pair's attempts, newest first.
 */
export function nextRepeatedErrorState(
  current: boolean,
  newestFirst: readonly (string | null)[],
  hasRefreshFreq: boolean,
): boolean {
  if (newestFirst.length > 0 && isAttemptSuccessful(newestFirst[0] ?? null)) return false;
  const window = hasRefreshFreq ? REPEATED_ERROR_ATTEMPTS : 1;
  const recent = newestFirst.slice(0, window);
  if (recent.length === window && recent.every((s) => s === 'failed')) return true;
  return current;
}

/** The trigger run once stores on each chosen pair: `reindex` with `from_beginning`, else `update`. */
export function runTrigger(fromBeginning: boolean): 'update' | 'reindex' {
  return fromBeginning ? 'reindex' : 'update';
}
