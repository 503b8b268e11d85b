/**
 * A driver's error as one line that names the database without its password: what could not be
 * reached, what the server refused, or the database's own message about the query.
 */

import { ExtractionError } from '../extraction-error.js';
import { oneLine } from '../fs-reason.js';
import type { SqlConnection } from './connection.js';
import { SqlSourceError } from './errors.js';

const NETWORK_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused (is the server running, on that host and port?)',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'no answer in time',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host cannot be reached',
};

function reasonOf(connection: SqlConnection, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && NETWORK_REASONS[code]) return NETWORK_REASONS[code];
  const message = oneLine(error);
  if (/timeout/i.test(message) && /connect/i.test(message)) return 'no answer in time';
  return connection.redact(message);
}

/** The source could not open a session: unreachable, refused, or a driver missing. */
export function connectFailure(connection: SqlConnection, error: unknown): Error {
  if (error instanceof ExtractionError) {
    // the driver is not installed: the optional loader's line, worded for a connection
    return new SqlSourceError(
      connection.redact(error.message).replace(/^cannot read /, 'cannot connect to '),
    );
  }
  return new SqlSourceError(
    `cannot connect to ${connection.shown}: ${reasonOf(connection, error)}`,
  );
}

/** A statement failed: the database's message (a syntax error, a missing table). */
export function queryFailure(connection: SqlConnection, error: unknown): Error {
  if (error instanceof SqlSourceError) return error;
  return new SqlSourceError(
    `the query failed on ${connection.shown}: ${reasonOf(connection, error)}`,
  );
}
