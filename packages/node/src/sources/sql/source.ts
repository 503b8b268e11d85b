/**
 * `sqlSource`: the rows of a query (or a table) in PostgreSQL, MySQL or MariaDB as documents,
 * streamed through a cursor (memory bounded at any row count), incremental by an update-time
 * column whose cursor the journal keeps, with the key set a sync needs to find deletions and the
 * key ranges queue mode cuts into jobs. README of @kis/node, "SQL source".
 */
import { normalizeDocumentId } from '@kis/rules';
import type { SourceItem } from '../items.js';
import type { RunOutcome, SourceStateStore } from '../source-state.js';
import { parseConnection, type SqlConnection } from './connection.js';
import { innerQuery, probeStatement, rowsStatement, type SqlFilter } from './dialects.js';
import {
  cursorKey,
  planWindow,
  readCursor,
  type SqlCursorState,
  type SqlWindow,
  windowFilters,
} from './incremental.js';
import { keyRanges, keyStream, type SqlKey, type SqlKeyRange } from './keys.js';
import {
  type CheckedMapping,
  checkMapping,
  checkMappingShape,
  type SqlMapping,
} from './mapping.js';
import { openMysql } from './mysql.js';
import { openPostgres } from './postgres.js';
import { RowItems } from './rows.js';
import { SeenIds } from './seen-ids.js';
import type { SqlSession } from './session.js';
import { textOf } from './values.js';

export interface SqlSourceOptions extends SqlMapping {
  /**
   * `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (or `postgresql://`), `mysql://…` for MySQL and
   * MariaDB. Used to connect only: everything shown (errors, journal keys, queue jobs) names the
   * database without the password.
   */
  connection: string;
  /**
   * Where the update-time column's cursor is kept between runs: the run's journal
   * (`openJournal`). Without it every run reads every row (the journal's fingerprints still
   * keep unchanged rows from being sent).
   */
  state?: SourceStateStore | undefined;
  /** Read every row, whatever cursor the state holds (the cursor is still moved on). */
  full?: boolean | undefined;
  /** Rows fetched per round trip of the cursor (default 1,000): memory is about this many rows. */
  batchSize?: number | undefined;
  /**
   * Hears why a run reads every row when it could have read only what changed (`ref`: the
   * database, without password).
   */
  onWarning?: ((ref: string, message: string) => void) | undefined;
}

/** A window given to {@link SqlSource.rangeItems}: the key range of a job and its run's cursor. */
export interface SqlRangeRequest extends SqlKeyRange {
  /** Rows whose update time reached this cursor only (an incremental run's jobs). */
  since?: SqlKey | null | undefined;
}

export interface SqlSource extends AsyncIterable<SourceItem> {
  /** The database without password, e.g. `postgres://kis@db:5432/crm`. */
  readonly connection: string;
  /** The mapping as given (plain strings: what a queue job or `kis.yaml` carries). */
  readonly mapping: SqlMapping;
  /** Whether a stored id is this source's: under `idPrefix`, or every id without one. */
  owns(documentId: string): boolean;
  /** True without `idPrefix`: the source then owns every document of its pair. */
  readonly ownsEverything: boolean;
  /**
   * Connects, runs the query for its columns only and checks the mapping against them; resolves
   * with the columns. Iterating does the same first, before any row is read.
   */
  check(): Promise<string[]>;
  /** The rows the last iteration (or `ranges`) read: every row, or those changed since the cursor. */
  readonly window: SqlWindow | undefined;
  /**
   * After an incremental iteration: every id the query gives now (ids only, streamed), which a
   * sync compares with the pair's listing to find deletions. Undefined after a full read (the
   * items read are then the whole source).
   */
  presentIds(): AsyncIterable<string> | undefined;
  /**
   * Records the cursor for the next run when the run that sent the items stored everything it
   * was given, bar the rows this source refused (a null text, a duplicate id: they are read
   * again when they change). Resolves true when it moved the cursor on.
   */
  finish(outcome: RunOutcome): Promise<boolean>;
  /** Key ranges of about `size` rows of the rows a run reads (queue mode's jobs); sets `window`. */
  ranges(size: number): AsyncGenerator<SqlKeyRange>;
  /** The items of one key range, in key order, at most `range.count` (a queue worker's job). */
  rangeItems(range: SqlRangeRequest): AsyncGenerator<SourceItem>;
}

const DEFAULT_BATCH = 1_000;

/** A session on the connection's database, through its driver. */
export function openSession(connection: SqlConnection): Promise<SqlSession> {
  return connection.dialect === 'postgres' ? openPostgres(connection) : openMysql(connection);
}

/** The rows of a query or table as documents (README of @kis/node, "SQL source"). */
export function sqlSource(options: SqlSourceOptions): SqlSource {
  const connection = parseConnection(options.connection);
  checkMappingShape(options);
  const inner = innerQuery(connection.dialect, options);
  const batch = options.batchSize ?? DEFAULT_BATCH;
  if (!Number.isSafeInteger(batch) || batch < 1) {
    throw new TypeError('sqlSource: batchSize must be a whole number of at least 1');
  }
  const { connection: _secret, state, full, batchSize: _b, onWarning, ...mapping } = options;
  const prefix = normalizeDocumentId(options.idPrefix ?? '');
  let window: SqlWindow | undefined;
  let key: string | undefined;
  let failures = { count: 0 };
  /** Whether the last reading (rows, or key ranges for queue jobs) got to the end: only then
   * may the cursor move on. */
  let readToEnd = false;

  /** A session whose mapping is checked against the query's columns. */
  const begin = async (): Promise<{
    session: SqlSession;
    checked: CheckedMapping;
    columns: string[];
  }> => {
    const session = await openSession(connection);
    try {
      const columns = await session.columns(probeStatement(connection.dialect, inner));
      return { session, checked: checkMapping(mapping, columns), columns };
    } catch (error) {
      await session.close();
      throw error;
    }
  };

  /** Decides the window of a run (and says why it reads every row, when it does). */
  const decide = async (session: SqlSession, checked: CheckedMapping): Promise<SqlWindow> => {
    key = cursorKey(connection, inner, checked);
    const stored = state ? readCursor(await state.stateOf(key)) : undefined;
    const decided = await planWindow(
      session,
      inner,
      connection.dialect,
      checked,
      stored,
      full === true,
    );
    if (decided.why) onWarning?.(connection.shown, decided.why);
    window = decided;
    return decided;
  };

  return {
    connection: connection.shown,
    mapping,
    owns: (id) => prefix === '' || id.startsWith(prefix),
    ownsEverything: prefix === '',
    get window() {
      return window;
    },
    async check() {
      const { session, columns } = await begin();
      await session.close();
      return columns;
    },
    async *[Symbol.asyncIterator]() {
      readToEnd = false;
      const { session, checked } = await begin();
      try {
        const decided = await decide(session, checked);
        const rows = new RowItems(checked, new SeenIds());
        failures = rows.failures;
        const statement = rowsStatement(connection.dialect, inner, windowFilters(decided, checked));
        for await (const row of session.rows(statement, batch)) yield rows.itemOf(row);
        readToEnd = true;
      } finally {
        await session.close();
      }
    },
    presentIds() {
      if (window?.mode !== 'incremental') return undefined;
      return (async function* () {
        const { session, checked } = await begin();
        try {
          for await (const k of keyStream(session, connection, inner, checked, [], batch)) {
            yield checked.idPrefix + (textOf(k) as string);
          }
        } finally {
          await session.close();
        }
      })();
    },
    async finish(outcome) {
      if (!state || key === undefined || window?.next === undefined) return false;
      // a run stopped between documents aborts none of them, yet never read the rest
      if (!readToEnd || outcome.aborted > 0 || outcome.stopped || outcome.cancelled) return false;
      if (outcome.failed > failures.count) return false;
      const column = mapping.updatedAt as string;
      const value: SqlCursorState = { v: 1, column, cursor: window.next };
      await state.recordState(key, value);
      return true;
    },
    async *ranges(size) {
      readToEnd = false;
      const { session, checked } = await begin();
      try {
        const decided = await decide(session, checked);
        const keys = keyStream(
          session,
          connection,
          inner,
          checked,
          windowFilters(decided, checked),
          batch,
        );
        yield* keyRanges(keys, size);
        readToEnd = true;
      } finally {
        await session.close();
      }
    },
    async *rangeItems(range) {
      const { session, checked } = await begin();
      try {
        const filters: SqlFilter[] = [
          { kind: 'keys', column: checked.id, after: range.after, upTo: range.upTo },
        ];
        if (range.since !== undefined && range.since !== null && checked.updatedAt) {
          filters.push({ kind: 'since', column: checked.updatedAt, value: range.since });
        }
        const rows = new RowItems(checked, new SeenIds());
        let n = 0;
        const statement = rowsStatement(connection.dialect, inner, filters, checked.id);
        for await (const row of session.rows(statement, batch)) {
          if (n++ >= range.count) break; // rows written into the range since: the next run's
          yield rows.itemOf(row);
        }
      } finally {
        await session.close();
      }
    },
  };
}
