/**
 * A test database of either dialect the SQL sources read (PostgreSQL, or MariaDB for `mysql://`),
 * started with the canary as its password: it must appear in no output, error, log, journal or
 * Redis key kis writes.
 */
import { startMariadb, type TestMariadb } from './mariadb-server.js';
import { startPostgres, type TestPostgres } from './postgres-server.js';

export type SqlDialect = 'postgres' | 'mysql';
export type TestDatabase = TestPostgres | TestMariadb;

/** Every test database's password. */
export const SQL_CANARY = 'kis-canary-5e3';

export function startDatabase(dialect: SqlDialect): Promise<TestDatabase> {
  return dialect === 'postgres'
    ? startPostgres({ password: SQL_CANARY })
    : startMariadb({ password: SQL_CANARY });
}

/** A value as an SQL literal in either dialect: NULL, or a quoted string. */
export function sqlLiteral(value: string | null | undefined): string {
  return value === null || value === undefined ? 'NULL' : `'${value.replace(/'/g, "''")}'`;
}
