/**
 * MySQL and MariaDB sessions on `mysql2` (an optional peer, loaded on first use). Rows stream:
 * the driver stops reading the socket while the source's buffer is full, so memory stays
 * bounded at any row count. Dates, times and big numbers come back as text, in UTC.
 */
import { optionalImport } from '../optional-import.js';
import type { SqlConnection } from './connection.js';
import type { Statement } from './dialects.js';
import { connectFailure, queryFailure } from './failures.js';
import type { SqlRow, SqlSession } from './session.js';

const loadDriver = optionalImport(['mysql2@3.24.5'], async () => (await import('mysql2')).default);

export async function openMysql(connection: SqlConnection): Promise<SqlSession> {
  const mysql = await loadDriver(connection.shown).catch((error: unknown) => {
    throw connectFailure(connection, error);
  });
  const conn = mysql.createConnection({
    // mariadb:// is this source's alias of mysql://, which the driver reads
    uri: connection.secret.replace(/^mariadb:/i, 'mysql:'),
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    connectTimeout: 15_000,
    multipleStatements: false,
  });
  conn.on('error', () => undefined); // a dropped connection fails the query in progress
  const call = <T>(statement: Statement | string) =>
    new Promise<T>((resolve, reject) => {
      const sql = typeof statement === 'string' ? statement : statement.sql;
      const values = typeof statement === 'string' ? [] : statement.params;
      conn.query(sql, values, (error, result, fields) => {
        if (error) reject(error);
        else resolve({ result, fields } as T);
      });
    });
  try {
    await new Promise<void>((resolve, reject) =>
      conn.connect((error) => (error ? reject(error) : resolve())),
    );
    // TIMESTAMP columns are shown in the session's zone: UTC, as doc_updated_at reads them
    await call("SET time_zone = '+00:00'");
  } catch (error) {
    conn.destroy();
    throw connectFailure(connection, error);
  }
  const run = async (statement: Statement) => {
    try {
      return await call<{ result: unknown; fields: { name: string }[] | undefined }>(statement);
    } catch (error) {
      throw queryFailure(connection, error);
    }
  };
  return {
    async columns(statement) {
      return ((await run(statement)).fields ?? []).map((f) => f.name);
    },
    async one(statement) {
      const { result } = await run(statement);
      return Array.isArray(result) ? (result[0] as SqlRow | undefined) : undefined;
    },
    async *rows(statement, batch) {
      const stream = conn
        .query(statement.sql, statement.params)
        .stream({ highWaterMark: batch, objectMode: true });
      try {
        for await (const row of stream) yield row as SqlRow;
      } catch (error) {
        throw queryFailure(connection, error);
      } finally {
        // left early: the rest of the result is read and dropped before the connection is reused
        stream.destroy();
      }
    },
    async close() {
      await new Promise<void>((resolve) => conn.end(() => resolve()));
      conn.destroy();
    },
  };
}
