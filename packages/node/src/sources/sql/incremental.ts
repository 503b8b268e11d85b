/**
 * Incremental runs of an SQL source. Before reading, the largest value of the update-time column
 * is taken (the next run's cursor: rows written meanwhile are at or above it, so the next run
 * reads them); a run with a cursor reads the rows at or above it (and those where it is null)
 * through the query itself, the cursor a bound parameter. A column whose largest value went
 * below the cursor (a restored backup, a clock set back) is said, and every row is read again.
 */
import { hash64 } from '../../journal/string-hash.js';
import type { SourceState } from '../source-state.js';
import type { SqlConnection } from './connection.js';
import { highWaterStatement, type SqlFilter } from './dialects.js';
import type { CheckedMapping } from './mapping.js';
import type { SqlSession } from './session.js';
import { stableJson } from './values.js';

/** What an SQL source records in the journal: the column and its cursor for the next run. */
export interface SqlCursorState extends SourceState {
  v: 1;
  column: string;
  cursor: string | number;
}

/** Which rows a run reads, and the cursor it leaves once they are stored. */
export interface SqlWindow {
  mode: 'full' | 'incremental';
  /** The cursor rows are read from (incremental runs). */
  since: string | number | undefined;
  /** The cursor the next run starts from, once this one stored what it read. */
  next: string | number | undefined;
  /** Why a run that could have been incremental reads every row (said as a warning). */
  why: string | undefined;
}

/**
 * The journal key of a source's cursor: its database (without password), query and id and
 * update-time columns; another query or mapping of the same table starts over.
 */
export function cursorKey(
  connection: SqlConnection,
  inner: string,
  mapping: CheckedMapping,
): string {
  const [a, b] = hash64(
    stableJson([inner, mapping.id, mapping.idPrefix, mapping.updatedAt ?? null]),
  );
  return `sql:${connection.shown}#${a.toString(16)}${b.toString(16).padStart(8, '0')}`;
}

/** A stored state this version reads, else undefined (read every row). */
export function readCursor(stored: unknown): SqlCursorState | undefined {
  if (stored === null || typeof stored !== 'object') return undefined;
  const s = stored as Partial<SqlCursorState>;
  if (s.v !== 1 || typeof s.column !== 'string') return undefined;
  if (typeof s.cursor !== 'string' && typeof s.cursor !== 'number') return undefined;
  return { v: 1, column: s.column, cursor: s.cursor };
}

const asCursor = (value: unknown): string | number | undefined =>
  typeof value === 'string' || typeof value === 'number' ? value : undefined;

/** Decides the run's rows; asks the database for the update-time column's largest value. */
export async function planWindow(
  session: SqlSession,
  inner: string,
  dialect: SqlConnection['dialect'],
  mapping: CheckedMapping,
  stored: SqlCursorState | undefined,
  full: boolean,
): Promise<SqlWindow> {
  const column = mapping.updatedAt;
  if (column === undefined) {
    return { mode: 'full', since: undefined, next: undefined, why: undefined };
  }
  const usable = stored !== undefined && stored.column === column && !full;
  const row = await session.one(
    highWaterStatement(dialect, inner, column, usable ? stored.cursor : undefined),
  );
  const next = asCursor(row?.kis_max);
  if (!usable) {
    const why =
      stored !== undefined && stored.column !== column && !full
        ? `the update-time column is now "${column}", the last run's was "${stored.column}": reading every row`
        : undefined;
    return { mode: 'full', since: undefined, next, why };
  }
  if (next === undefined) {
    return {
      mode: 'full',
      since: undefined,
      next,
      why: `no row has a value in the update-time column "${column}" now (the last run's cursor was ${stored.cursor}): reading every row`,
    };
  }
  if (Number(row?.kis_backwards) === 1) {
    return {
      mode: 'full',
      since: undefined,
      next,
      why: `the update-time column "${column}" went backwards (its largest value ${next} is below the last run's cursor ${stored.cursor}): reading every row again; the journal keeps unchanged rows from being sent`,
    };
  }
  return { mode: 'incremental', since: stored.cursor, next, why: undefined };
}

/** The filter of an incremental window (none for a full run). */
export function windowFilters(window: SqlWindow, mapping: CheckedMapping): SqlFilter[] {
  return window.mode === 'incremental' && window.since !== undefined && mapping.updatedAt
    ? [{ kind: 'since', column: mapping.updatedAt, value: window.since }]
    : [];
}
