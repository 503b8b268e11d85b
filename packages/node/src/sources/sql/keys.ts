/**
 * The key set of an SQL source: the id column alone, streamed in key order through a cursor.
 * A sync compares it with the pair's listing to find deletions without holding any row, and
 * queue mode cuts it into key ranges (`id > a AND id <= b`) that workers read back.
 */
import type { SqlConnection } from './connection.js';
import { keysStatement, type SqlFilter } from './dialects.js';
import { SqlSourceError } from './errors.js';
import type { CheckedMapping } from './mapping.js';
import type { SqlSession } from './session.js';

/** A key as a job can carry it: the database's value, a number or text. */
export type SqlKey = string | number;

/** Rows with keys after `after` (exclusive; null: from the first) up to `upTo` (inclusive). */
export interface SqlKeyRange {
  after: SqlKey | null;
  upTo: SqlKey;
  /** Rows in the range when it was cut. */
  count: number;
}

/** The keys of the rows `filters` select, in key order (rows without a key left out). */
export async function* keyStream(
  session: SqlSession,
  connection: SqlConnection,
  inner: string,
  mapping: CheckedMapping,
  filters: readonly SqlFilter[],
  batch: number,
): AsyncGenerator<SqlKey> {
  const statement = keysStatement(connection.dialect, inner, mapping.id, filters);
  for await (const row of session.rows(statement, batch)) {
    const key = row.kis_key;
    if (key === null || key === undefined) continue;
    if (typeof key !== 'string' && typeof key !== 'number') {
      throw new SqlSourceError(
        `the id column "${mapping.id}" holds ${key instanceof Uint8Array ? 'bytes' : typeof key}, not numbers or text: cast it in the query (e.g. ${mapping.id}::text)`,
      );
    }
    yield key;
  }
}

/**
 * Key ranges of about `size` rows each: a range ends where the key changes, so rows that share
 * a key are never split between two ranges.
 */
export async function* keyRanges(
  keys: AsyncIterable<SqlKey>,
  size: number,
): AsyncGenerator<SqlKeyRange> {
  let after: SqlKey | null = null;
  let last: SqlKey | undefined;
  let count = 0;
  for await (const key of keys) {
    if (count >= size && key !== last && last !== undefined) {
      yield { after, upTo: last, count };
      after = last;
      count = 0;
    }
    last = key;
    count++;
  }
  if (last !== undefined && count > 0) yield { after, upTo: last, count };
}
