/**
 * The databases the SQL end-to-end tests read: a private PostgreSQL or MariaDB of
 * `@kis/test-support` whose password is the canary (it must appear in no output, journal, file
 * under .kis/ or Redis key), and a `tickets` table written for either.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sqlLiteral as literal, SQL_CANARY, type SqlDialect } from '@kis/test-support';

export { startDatabase, type TestDatabase } from '@kis/test-support';
export type Dialect = SqlDialect;
/** Every test database's password: found nowhere kis writes. */
export const CANARY = SQL_CANARY;

/** A ticket: its text may be null (the row fails alone), its update time is UTC. */
export interface Ticket {
  id: number;
  subject: string;
  body: string | null;
  status?: string;
  updated: string;
}

/** `n` tickets from id `from`, updated on 2024-01-01 at their id in seconds. */
export function tickets(n: number, from = 1): Ticket[] {
  return Array.from({ length: n }, (_, i) => {
    const id = from + i;
    const s = (k: number) => String(k).padStart(2, '0');
    return {
      id,
      subject: `Ticket ${id}`,
      body: `The body of ticket ${id}.`,
      status: id % 2 === 0 ? 'open' : 'closed',
      updated: `2024-01-01 ${s(Math.floor(id / 3600) % 24)}:${s(Math.floor(id / 60) % 60)}:${s(id % 60)}`,
    };
  });
}

export function insertTickets(rows: readonly Ticket[]): string {
  const values = rows.map(
    (r) =>
      `(${r.id}, ${literal(r.subject)}, ${literal(r.body)}, ${literal(r.status ?? 'open')}, '${r.updated}')`,
  );
  return `INSERT INTO tickets (id, subject, body, status, updated_at) VALUES ${values.join(', ')};`;
}

/** Drops and creates `tickets` with these rows. */
export function createTickets(dialect: Dialect, rows: readonly Ticket[]): string {
  const time = dialect === 'postgres' ? 'timestamptz' : 'TIMESTAMP(6) NULL';
  return `DROP TABLE IF EXISTS tickets;
CREATE TABLE tickets (id integer PRIMARY KEY, subject varchar(200), body text, status varchar(40), updated_at ${time});
${rows.length > 0 ? insertTickets(rows) : ''}`;
}

/** Every file under `dir` as text (journals, .kis/ state), for the canary. */
export function filesText(dir: string): string {
  let out = '';
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out += `${readFileSync(path, 'utf8')}\n`;
    }
  };
  walk(dir);
  return out;
}
