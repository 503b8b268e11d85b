// Pairs, their index attempts and their errors as the lifecycle calls answer them, typed by the
// spec's schemas (`CcPairFullInfo`, `IndexAttempt`, `IndexingError`, `PairIndexingStatus`).
// Derived fields follow docs/deployed-servers.md, "Operating connectors".
import type { Schemas } from './op-types.js';
import type { AttemptSummary, IndexAttemptRecord } from './store/index-attempts.js';
import type { IndexingErrorRecord } from './store/indexing-errors.js';
import type { PairRecord } from './store/pairs.js';

/** What the caller may do with a pair: `is_editable`, and the main line's `permissions` map. */
export interface PairRights {
  editable: boolean;
  /** Undefined where the server sends no map (release 4.6.1, the seed's kind). */
  permissions: Schemas['CcPairPermissions'] | undefined;
}

/** A pair's `access_type` as answers spell it (stored lower-case). */
export function pairAccessType(p: PairRecord): Schemas['ConnectorStatus']['access_type'] {
  const value = p.access_type.toLowerCase();
  return value === 'private' || value === 'sync' ? value : 'public';
}

/** During a pair's very first attempt, its document count is that attempt's new documents. */
function documentsShown(documents: number, attempts: AttemptSummary): number {
  const first = attempts.count === 1 ? attempts.newest : undefined;
  return first?.status === 'in_progress' ? first.new_docs_indexed : documents;
}

/** Documents per minute since the connector was created; null right at its creation. */
function indexingSpeed(documents: number, connectorCreated: string, now: Date): number | null {
  const minutes = (now.getTime() - Date.parse(connectorCreated)) / 60_000;
  return minutes > 0 ? documents / minutes : null;
}

export interface PairDetail {
  pair: PairRecord;
  connector: Schemas['Connector'];
  credential: Schemas['Credential'];
  documents: number;
  attempts: AttemptSummary;
  rights: PairRights;
  now: Date;
}

/** One pair with its state (`CcPairFullInfo`), the credential's secrets masked. */
export function ccPairView(d: PairDetail): Schemas['CcPairFullInfo'] {
  const { pair, attempts } = d;
  const newest = attempts.newest;
  const view: Schemas['CcPairFullInfo'] = {
    id: pair.id,
    name: pair.name,
    status: pair.status,
    in_repeated_error_state: pair.in_repeated_error_state,
    num_docs_indexed: documentsShown(d.documents, attempts),
    connector: d.connector,
    credential: d.credential,
    number_of_index_attempts: attempts.count,
    last_index_attempt_status: newest?.status ?? null,
    latest_deletion_attempt:
      pair.deletion_status === null
        ? null
        : {
            connector_id: pair.connector_id,
            credential_id: pair.credential_id,
            status: pair.deletion_status,
          },
    access_type: pairAccessType(pair),
    groups: pair.groups,
    is_editable_for_current_user: d.rights.editable,
    deletion_failure_message: null,
    indexing: newest?.status === 'in_progress',
    creator: null,
    creator_email: null,
    last_indexed: attempts.lastSuccess,
    last_pruned: pair.last_pruned,
    last_full_permission_sync: null,
    overall_indexing_speed: indexingSpeed(d.documents, d.connector.time_created, d.now),
    latest_checkpoint_description: null,
    last_permission_sync_attempt_status: null,
    permission_syncing: false,
    last_permission_sync_attempt_finished: null,
    last_permission_sync_attempt_error_message: null,
    supports_targeted_reindex: false,
  };
  if (d.rights.permissions !== undefined) view.permissions = d.rights.permissions;
  return view;
}

/** One index attempt (`IndexAttempt`). */
export function indexAttemptView(a: IndexAttemptRecord): Schemas['IndexAttempt'] {
  return {
    id: a.id,
    status: a.status,
    from_beginning: a.from_beginning,
    new_docs_indexed: a.new_docs_indexed,
    total_docs_indexed: a.total_docs_indexed,
    docs_removed_from_index: a.docs_removed_from_index,
    error_msg: a.error_msg,
    error_count: a.error_count,
    full_exception_trace: a.full_exception_trace,
    time_started: a.time_started,
    time_updated: a.time_updated,
    poll_range_start: a.poll_range_start,
    poll_range_end: a.poll_range_end,
  };
}

/** One indexing error (`IndexingError`). */
export function indexingErrorView(e: IndexingErrorRecord): Schemas['IndexingError'] {
  return { ...e };
}

/** One pair's row of the indexing-status listing (`PairIndexingStatus`). */
export function pairIndexingStatusView(
  pair: PairRecord,
  source: Schemas['PairIndexingStatus']['source'],
  documents: number,
  attempts: AttemptSummary,
  rights: PairRights,
): Schemas['PairIndexingStatus'] {
  const newest = attempts.newest;
  const row: Schemas['PairIndexingStatus'] = {
    cc_pair_id: pair.id,
    name: pair.name,
    source,
    access_type: pairAccessType(pair),
    cc_pair_status: pair.status,
    in_progress: newest?.status === 'in_progress',
    in_repeated_error_state: pair.in_repeated_error_state,
    last_finished_status: attempts.newestFinishedStatus,
    last_status: newest?.status ?? null,
    last_success: attempts.lastSuccess,
    is_editable: rights.editable,
    docs_indexed: documents,
    latest_index_attempt_docs_indexed: newest?.total_docs_indexed ?? null,
  };
  if (rights.permissions !== undefined) row.permissions = rights.permissions;
  return row;
}
