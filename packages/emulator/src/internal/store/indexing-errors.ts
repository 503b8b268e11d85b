// Indexing errors (table `index_attempt_errors`): what an index attempt recorded about a document
// or a source entity it could not index. A later successful attempt resolves the pair's errors.
import type { Sqlite } from './sqlite.js';

export interface IndexingErrorRecord {
  id: number;
  connector_credential_pair_id: number;
  index_attempt_id: number;
  document_id: string | null;
  document_link: string | null;
  entity_id: string | null;
  failed_time_range_start: string | null;
  failed_time_range_end: string | null;
  failure_message: string;
  is_resolved: boolean;
  time_created: string;
  error_type: string | null;
}

export interface IndexingErrorWrite {
  cc_pair_id: number;
  index_attempt_id: number;
  document_id: string | null;
  document_link: string | null;
  entity_id: string | null;
  failure_message: string;
  error_type: string | null;
}

interface ErrorRow extends Omit<IndexingErrorRecord, 'is_resolved'> {
  is_resolved: number;
}

type PairId = { cc_pair_id: number };
/** `resolved` 1 lists resolved errors too. */
type Filter = PairId & { resolved: number };

const COLUMNS = `id, cc_pair_id AS connector_credential_pair_id, index_attempt_id, document_id,
  document_link, entity_id, failed_time_range_start, failed_time_range_end, failure_message,
  is_resolved, time_created, error_type`;
const WHERE = 'WHERE cc_pair_id = @cc_pair_id AND (@resolved = 1 OR is_resolved = 0)';

function toError(row: ErrorRow): IndexingErrorRecord {
  return { ...row, is_resolved: row.is_resolved === 1 };
}

function prepare(db: Sqlite) {
  return {
    insert: db.statement<IndexingErrorWrite & { now: string }>(
      `INSERT INTO index_attempt_errors (index_attempt_id, cc_pair_id, document_id,
         document_link, entity_id, failure_message, error_type, time_created)
       VALUES (@index_attempt_id, @cc_pair_id, @document_id, @document_link, @entity_id,
         @failure_message, @error_type, @now)`,
    ),
    page: db.statement<Filter & { limit: number; offset: number }, ErrorRow>(
      `SELECT ${COLUMNS} FROM index_attempt_errors ${WHERE}
       ORDER BY time_created DESC, id DESC LIMIT @limit OFFSET @offset`,
    ),
    count: db.column<Filter, number>(`SELECT count(*) FROM index_attempt_errors ${WHERE}`),
    resolve: db.statement<PairId>(
      'UPDATE index_attempt_errors SET is_resolved = 1 WHERE cc_pair_id = @cc_pair_id',
    ),
  };
}

/** The indexing errors of every pair. */
export class IndexingErrors {
  private readonly stmt: ReturnType<typeof prepare>;

  constructor(
    db: Sqlite,
    private readonly now: () => string,
  ) {
    this.stmt = prepare(db);
  }

  record(error: IndexingErrorWrite): void {
    this.stmt.insert.run({ ...error, now: this.now() });
  }

  /** One page of the pair's errors, newest first; open ones only unless `includeResolved`. */
  pageOfPair(
    pairId: number,
    includeResolved: boolean,
    pageNum: number,
    pageSize: number,
  ): IndexingErrorRecord[] {
    const filter = { cc_pair_id: pairId, resolved: includeResolved ? 1 : 0 };
    const page = { limit: pageSize, offset: pageNum * pageSize };
    return this.stmt.page.all({ ...filter, ...page }).map(toError);
  }

  countOfPair(pairId: number, includeResolved: boolean): number {
    return this.stmt.count.get({ cc_pair_id: pairId, resolved: includeResolved ? 1 : 0 }) ?? 0;
  }

  /** Marks every error of the pair resolved (a later attempt succeeded). */
  resolveAll(pairId: number): void {
    this.stmt.resolve.run({ cc_pair_id: pairId });
  }
}
