/**
 * Connection strings of SQL sources: which database they name, and that same string with its
 * password taken out, which is all that messages, logs, journals and queue jobs ever show.
 */
import { SqlSourceError } from './errors.js';

/** The databases an SQL source reads: PostgreSQL, and MySQL or MariaDB. */
export type SqlDialect = 'postgres' | 'mysql';

const SCHEMES: Readonly<Record<string, SqlDialect>> = {
  'postgres:': 'postgres',
  'postgresql:': 'postgres',
  'mysql:': 'mysql',
  'mariadb:': 'mysql',
};

export interface SqlConnection {
  dialect: SqlDialect;
  /** The string as given, password included: handed to the driver, never shown. */
  readonly secret: string;
  /** `postgres://kis@db.example.com:5432/crm`: the string without its password. */
  readonly shown: string;
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  /** A message with this connection's password (and the whole string) replaced by `***`. */
  redact(text: string): string;
}

const DEFAULT_PORTS: Readonly<Record<SqlDialect, number>> = { postgres: 5432, mysql: 3306 };

/** Reads a connection string; a malformed one is refused without echoing it (it may hold a password). */
export function parseConnection(connection: string): SqlConnection {
  if (typeof connection !== 'string' || connection === '') {
    throw new SqlSourceError(
      'connection must be a postgres://, postgresql:// or mysql:// URL (USER:PASSWORD@HOST:PORT/DATABASE)',
    );
  }
  let url: URL;
  try {
    url = new URL(connection);
  } catch {
    throw new SqlSourceError(
      'connection is not a URL: expected postgres://USER:PASSWORD@HOST:PORT/DATABASE (or postgresql://, mysql://)',
    );
  }
  const dialect = SCHEMES[url.protocol];
  if (dialect === undefined) {
    throw new SqlSourceError(
      `connection scheme ${url.protocol}// is not one an SQL source reads: postgres://, postgresql://, mysql:// (MySQL and MariaDB)`,
    );
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database === '') {
    throw new SqlSourceError(
      `connection ${describe(url)} names no database: add /DATABASE after the host`,
    );
  }
  const secrets = secretsOf(connection, url);
  return {
    dialect,
    secret: connection,
    shown: describe(url),
    host: url.hostname,
    port: url.port === '' ? DEFAULT_PORTS[dialect] : Number(url.port),
    database,
    user: decodeURIComponent(url.username),
    redact: (text) => redactAll(text.split(connection).join(describe(url)), secrets),
  };
}

/** The URL without password (and without a query string, which may carry one). */
function describe(url: URL): string {
  const user = url.username === '' ? '' : `${url.username}@`;
  return `${url.protocol}//${user}${url.host}${url.pathname}`;
}

/** What must never be shown: the string itself and its password, raw and decoded. */
function secretsOf(connection: string, url: URL): string[] {
  const secrets = [connection];
  if (url.password !== '') {
    secrets.push(url.password);
    try {
      secrets.push(decodeURIComponent(url.password));
    } catch {
      // a password that is not valid percent-encoding is hidden as written
    }
  }
  for (const [key, value] of url.searchParams) {
    if (/pass|secret|key|token/i.test(key) && value !== '') secrets.push(value);
  }
  // longest first: a password inside the whole string goes with it
  return [...new Set(secrets)].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}

function redactAll(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}

/**
 * A connection string as it may be shown (`postgres://kis@db:5432/crm`, no password); throws
 * {@link SqlSourceError} when it is not one an SQL source reads.
 */
export function describeSqlConnection(connection: string): string {
  return parseConnection(connection).shown;
}
