/** The tickets table the SQL tests read, written for each dialect, and a server per dialect. */
import { sqlLiteral as literal, SQL_CANARY, type SqlDialect } from '@kis/test-support';

export { startDatabase, type TestDatabase } from '@kis/test-support';
export type Dialect = SqlDialect;
/** The password every test server gets: it must appear in no output, error, log or journal. */
export const CANARY = SQL_CANARY;

/** A ticket row: id, subject, body, notes (nullable), status, updated_at (UTC). */
export interface Ticket {
  id: number;
  subject: string;
  body: string | null;
  notes?: string | null;
  status?: string;
  updated: string;
}

/** Creates (or re-creates) `tickets` with these rows. */
export function createTickets(dialect: Dialect, rows: readonly Ticket[]): string {
  const time = dialect === 'postgres' ? 'timestamptz' : 'TIMESTAMP(6) NULL';
  return `DROP TABLE IF EXISTS tickets;
CREATE TABLE tickets (id integer PRIMARY KEY, subject varchar(200), body text, notes text, status varchar(40), updated_at ${time});
${insertTickets(rows)}`;
}

export function insertTickets(rows: readonly Ticket[]): string {
  if (rows.length === 0) return '';
  const values = rows.map(
    (r) =>
      `(${r.id}, ${literal(r.subject)}, ${literal(r.body)}, ${literal(r.notes)}, ${literal(r.status ?? 'open')}, '${r.updated}')`,
  );
  return `INSERT INTO tickets (id, subject, body, notes, status, updated_at) VALUES ${values.join(', ')};`;
}

/** `n` tickets from id `from`, updated at 2024-01-01 plus their id in minutes. */
export function tickets(n: number, from = 1): Ticket[] {
  return Array.from({ length: n }, (_, i) => {
    const id = from + i;
    const minutes = String(id % 60).padStart(2, '0');
    const hours = String(Math.floor(id / 60) % 24).padStart(2, '0');
    return {
      id,
      subject: `Ticket ${id}`,
      body: `The body of ticket ${id}.`,
      notes: id % 2 === 0 ? `Notes on ${id}.` : null,
      updated: `2024-01-01 ${hours}:${minutes}:00`,
    };
  });
}
