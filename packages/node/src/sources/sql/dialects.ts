/**
 * The SQL an SQL source sends, per dialect. The user's query is always a derived table
 * (`SELECT … FROM (<query>) AS kis_src WHERE …`) and every value (a cursor, a key) a bound
 * parameter: nothing read from a database or a journal is ever spliced into SQL text.
 */
import type { SqlDialect } from './connection.js';
import { SqlSourceError } from './errors.js';

/** What the source reads: the user's query, or every row of a table. */
export interface SqlFrom {
  query?: string | undefined;
  /** A table (`tickets`, or `schema.tickets`), read as `SELECT * FROM` it. */
  table?: string | undefined;
}

/** A condition on the rows read, its values bound as parameters. */
export type SqlFilter =
  /** Rows whose column reached `value` (the last run's cursor), and rows where it is null. */
  | { kind: 'since'; column: string; value: string | number }
  /** Rows whose key is after `after` (exclusive, absent: from the first) and up to `upTo`. */
  | { kind: 'keys'; column: string; after: string | number | null; upTo: string | number };

const ALIAS = 'kis_src';

/** `"name"` (PostgreSQL) or `` `name` `` (MySQL), quotes doubled inside. */
export function quoteIdentifier(dialect: SqlDialect, name: string): string {
  const q = dialect === 'postgres' ? '"' : '`';
  return `${q}${name.split(q).join(q + q)}${q}`;
}

const column = (dialect: SqlDialect, name: string) => `${ALIAS}.${quoteIdentifier(dialect, name)}`;

/** The n-th (1-based) bound parameter's placeholder. */
const param = (dialect: SqlDialect, n: number) => (dialect === 'postgres' ? `$${n}` : '?');

/** The user's query without a trailing `;`, or `SELECT * FROM <table>`. */
export function innerQuery(dialect: SqlDialect, from: SqlFrom): string {
  if ((from.query === undefined) === (from.table === undefined)) {
    throw new SqlSourceError('give an SQL source a query or a table (one of them)');
  }
  if (from.table !== undefined) {
    const parts = from.table.split('.');
    if (from.table === '' || parts.some((p) => p === '')) {
      throw new SqlSourceError(`table "${from.table}" is not a table name (name or schema.name)`);
    }
    return `SELECT * FROM ${parts.map((p) => quoteIdentifier(dialect, p)).join('.')}`;
  }
  const query = (from.query as string).trim().replace(/;\s*$/, '').trim();
  if (query === '') throw new SqlSourceError('the query is empty');
  return query;
}

/** The statement and its parameters. */
export interface Statement {
  sql: string;
  params: (string | number | null)[];
}

function where(dialect: SqlDialect, filters: readonly SqlFilter[], params: Statement['params']) {
  const parts: string[] = [];
  for (const f of filters) {
    if (f.kind === 'since') {
      params.push(f.value);
      const c = column(dialect, f.column);
      parts.push(`(${c} >= ${param(dialect, params.length)} OR ${c} IS NULL)`);
    } else {
      const c = column(dialect, f.column);
      if (f.after !== null) {
        params.push(f.after);
        parts.push(`${c} > ${param(dialect, params.length)}`);
      }
      params.push(f.upTo);
      parts.push(`${c} <= ${param(dialect, params.length)}`);
    }
  }
  return parts.length === 0 ? '' : ` WHERE ${parts.join(' AND ')}`;
}

/** No rows, only the query's columns (and its syntax checked by the database). */
export function probeStatement(_dialect: SqlDialect, inner: string): Statement {
  return { sql: `SELECT * FROM (${inner}) AS ${ALIAS} LIMIT 0`, params: [] };
}

/** The rows to read, in key order when `orderBy` is given. */
export function rowsStatement(
  dialect: SqlDialect,
  inner: string,
  filters: readonly SqlFilter[],
  orderBy?: string,
): Statement {
  const params: Statement['params'] = [];
  const clause = where(dialect, filters, params);
  const order = orderBy === undefined ? '' : ` ORDER BY ${column(dialect, orderBy)}`;
  return { sql: `SELECT * FROM (${inner}) AS ${ALIAS}${clause}${order}`, params };
}

/** The key column alone (a deletion check, or key ranges for queue jobs), in key order. */
export function keysStatement(
  dialect: SqlDialect,
  inner: string,
  key: string,
  filters: readonly SqlFilter[],
): Statement {
  const params: Statement['params'] = [];
  const clause = where(dialect, filters, params);
  const c = column(dialect, key);
  return {
    sql: `SELECT ${c} AS kis_key FROM (${inner}) AS ${ALIAS}${clause} ORDER BY ${c}`,
    params,
  };
}

/**
 * The largest value of the update-time column now (the next run's cursor, taken before the rows
 * are read), and whether it is below the last run's cursor (the column went backwards).
 */
export function highWaterStatement(
  dialect: SqlDialect,
  inner: string,
  updatedAt: string,
  last: string | number | undefined,
): Statement {
  const c = column(dialect, updatedAt);
  if (last === undefined) {
    return { sql: `SELECT MAX(${c}) AS kis_max FROM (${inner}) AS ${ALIAS}`, params: [] };
  }
  return {
    sql: `SELECT MAX(${c}) AS kis_max, CASE WHEN MAX(${c}) < ${param(dialect, 1)} THEN 1 ELSE 0 END AS kis_backwards FROM (${inner}) AS ${ALIAS}`,
    params: [last],
  };
}
