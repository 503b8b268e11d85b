/** Options of the search and scoping calls (`kis.search`, `kis.documentSets`, `kis.userGroups`). Types only. */
import type { RequestOptions } from './request-options.js';
import type { SearchFilters } from './types.js';

export interface AdminSearchOptions extends RequestOptions {
  /** Sources, document-set names, tags, time ranges (default: none, `{}`). */
  filters?: SearchFilters | undefined;
}

export interface BoostedOptions extends RequestOptions {
  /** Lowest boosts first. Default false. */
  ascending?: boolean | undefined;
  /** Most documents answered. Default 100. */
  limit?: number | undefined;
}

export interface DocumentSetListOptions extends RequestOptions {
  /** Only the sets the key may edit (`get_editable=true`). Default false. */
  editable?: boolean | undefined;
}

export interface UserGroupListOptions extends RequestOptions {
  /** List the seeded groups (`Admin`, `Basic`) too. Default false. */
  includeDefault?: boolean | undefined;
}

/** Options of the calls that wait for the server's sync of a set or group. */
export interface SyncWaitOptions extends RequestOptions {
  /** Give up after this many ms. Default 10 minutes. */
  waitMs?: number | undefined;
}

/** Document sets to share with a group, and to stop sharing. */
export interface GroupDocumentSetChange {
  add?: readonly number[] | undefined;
  remove?: readonly number[] | undefined;
}
