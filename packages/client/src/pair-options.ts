/**
 * Options of the calls that read and run a pair (`kis.pairs.attempts`, `errors`, `run` and
 * `kis.connectors.runOnce`). Types only.
 */
import type { RequestOptions } from './request-options.js';

/** Options of a paged listing. */
export interface PageOptions extends RequestOptions {
  /** Items asked for per request (the server's limit: 1000 for attempts, 100 for errors). */
  pageSize?: number | undefined;
}

export interface ErrorListOptions extends PageOptions {
  /** Also list errors a later attempt resolved. Default false. */
  includeResolved?: boolean | undefined;
}

export interface RunOptions extends RequestOptions {
  /** Re-read the whole source instead of what changed since the last run. Default false. */
  fromBeginning?: boolean | undefined;
  /** Only these credentials' pairs of the connector (default: every pair of it). */
  credentialIds?: readonly number[] | undefined;
}
