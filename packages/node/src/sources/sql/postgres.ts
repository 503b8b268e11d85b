/**
 * PostgreSQL sessions on `pg` and `pg-cursor` (optional peers, loaded on first use). Dates and
 * times come back as PostgreSQL writes them, in UTC: a cursor taken from a row is given back as
 * a parameter exactly, with no JavaScript `Date` (milliseconds only, local time) in between.
 */
import { optionalImport } from '../optional-import.js';
import type { SqlConnection } from './connection.js';
import type { Statement } from './dialects.js';
import { connectFailure, queryFailure } from './failures.js';
import type { SqlRow, SqlSession } from './session.js';

const loadDriver = optionalImport(['pg@8.23.1', 'pg-cursor@2.22.0'], async () => {
  const [pg, cursor] = await Promise.all([import('pg'), import('pg-cursor')]);
  return { pg: pg.default, Cursor: cursor.default };
});

/** date, time, timestamp, timestamptz, timetz, interval: kept as text. */
const TEXT_TYPES = new Set([1082, 1083, 1114, 1184, 1266, 1186]);

export async function openPostgres(connection: SqlConnection): Promise<SqlSession> {
  const { pg, Cursor } = await loadDriver(connection.shown).catch((error: unknown) => {
    throw connectFailure(connection, error);
  });
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      TEXT_TYPES.has(oid)
        ? (value: string) => value
        : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
  };
  const client = new pg.Client({
    connectionString: connection.secret,
    connectionTimeoutMillis: 15_000,
    application_name: 'kis',
    options: '-c TimeZone=UTC',
    types,
  });
  client.on('error', () => undefined); // a dropped connection fails the query in progress
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw connectFailure(connection, error);
  }
  const run = async (statement: Statement) => {
    try {
      return await client.query({ text: statement.sql, values: statement.params });
    } catch (error) {
      throw queryFailure(connection, error);
    }
  };
  return {
    async columns(statement) {
      return (await run(statement)).fields.map((f) => f.name);
    },
    async one(statement) {
      return (await run(statement)).rows[0] as SqlRow | undefined;
    },
    async *rows(statement, batch) {
      const cursor = client.query(new Cursor<SqlRow>(statement.sql, statement.params));
      try {
        for (;;) {
          let rows: SqlRow[];
          try {
            rows = await cursor.read(batch);
          } catch (error) {
            throw queryFailure(connection, error);
          }
          if (rows.length === 0) return;
          yield* rows;
        }
      } finally {
        await cursor.close().catch(() => undefined);
      }
    },
    async close() {
      await client.end().catch(() => undefined);
    },
  };
}
