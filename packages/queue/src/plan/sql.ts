/**
 * An SQL source cut into jobs of key ranges: the producer streams the key set of the rows its run
 * reads (ids only, in key order) and names ranges of `batchSize` rows; each worker runs the
 * bounded query (`id > a AND id <= b`, with the run's cursor) itself. No row is read here.
 */
import type { SqlSource } from '@kis/node';
import { QueueUsageError } from '../errors.js';
import type { SqlJob } from '../job-data.js';

/** Rows of an SQL query or table, read by workers through a connection they hold by name. */
export interface SqlQueueSource {
  kind: 'sql';
  /** The source as the producer reads it (`sqlSource` of `@kis/node`, with its journal). */
  source: SqlSource;
  /**
   * The name workers know the database by (`startWorker`'s `connections`): jobs carry this
   * name, never the connection string.
   */
  connection: string;
}

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export function checkSqlSource(source: SqlQueueSource): void {
  if (typeof source.connection !== 'string' || !NAME.test(source.connection)) {
    throw new QueueUsageError(
      'source.connection must name the connection workers hold (letters, digits, _ . -), e.g. "crm"',
    );
  }
  if (source.source === null || typeof source.source?.ranges !== 'function') {
    throw new QueueUsageError('source.source must be an SQL source (sqlSource of @kis/node)');
  }
}

/** The jobs of an SQL source: one key range of about `batchSize` rows each. */
export async function* sqlJobs(
  source: SqlQueueSource,
  batchSize: number,
): AsyncGenerator<Omit<SqlJob, 'v' | 'run' | 'seq' | 'start' | 'ccPairId' | 'items' | 'acks'>> {
  const sql = source.source;
  for await (const range of sql.ranges(batchSize)) {
    const since = sql.window?.mode === 'incremental' ? sql.window.since : undefined;
    yield {
      kind: 'sql',
      count: range.count,
      connection: source.connection,
      database: sql.connection,
      mapping: sql.mapping,
      after: range.after,
      upTo: range.upTo,
      ...(since === undefined ? {} : { since }),
    };
  }
}
