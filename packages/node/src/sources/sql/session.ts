/**
 * One connection to a database, as the SQL source uses it: the columns a statement gives, its
 * rows streamed through a cursor (a few hundred in memory at a time), one row, and closing.
 * `postgres.ts` and `mysql.ts` make them with each database's well-kept driver.
 */
import type { Statement } from './dialects.js';

/** A row as the driver gives it: column name → value (dates and big numbers as text). */
export type SqlRow = Record<string, unknown>;

export interface SqlSession {
  /** The column names the statement's rows have (it is run with no rows asked for). */
  columns(statement: Statement): Promise<string[]>;
  /**
   * The statement's rows, `batch` at a time from a server-side cursor (or a paused stream):
   * leaving the loop early closes it.
   */
  rows(statement: Statement, batch: number): AsyncGenerator<SqlRow>;
  /** The first row, for aggregates. */
  one(statement: Statement): Promise<SqlRow | undefined>;
  close(): Promise<void>;
}
