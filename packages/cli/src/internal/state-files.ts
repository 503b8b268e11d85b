/**
 * Where commands keep their state by default: under `.kis/<kind>/`, one file per server, named
 * after its base URL (`127.0.0.1_8080_api`), so two servers never share a journal or a record.
 * `sync` holds the pairs' journals, which `kis ingest` shares (pair-journal.ts).
 */
import { join } from 'node:path';

export function stateFile(kind: 'sync' | 'apply', baseUrl: string, suffix: string): string {
  const server = baseUrl.replace(/^https?:\/\//, '').replace(/[^A-Za-z0-9.-]+/g, '_');
  return join('.kis', kind, `${server}${suffix}`);
}
