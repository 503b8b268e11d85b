// Documents (table `documents`, attached to pairs through `document_pairs`): their upserts, the
// listings the API and the state view read, and the indexing queue the background worker drains.
import {
  type DocumentUpserts,
  type DocumentWrite,
  prepareUpserts,
  type UpsertRequest,
  type UpsertResult,
} from './document-upserts.js';
import { GroupCommit } from './group-commit.js';
import { type JsonObject, parseJson, parseJsonOrNull } from './json-columns.js';
import type { NoParams, Sqlite } from './sqlite.js';

export type IndexState = 'queued' | 'indexed';

export interface IndexCounts {
  queued: number;
  indexed: number;
  total: number;
}

export interface DocumentSummary {
  seq: number;
  id: string;
  semantic_identifier: string;
  title: string | null;
  source: string;
  link: string | null;
  from_ingestion_api: boolean;
  doc_updated_at: string;
  index_state: IndexState;
  queued_at: string;
  indexed_at: string | null;
  time_created: string;
  time_updated: string;
  cc_pair_ids: number[];
}

export interface DocumentRecord extends DocumentSummary {
  sections: unknown[];
  metadata: JsonObject;
  primary_owners: unknown[] | null;
  secondary_owners: unknown[] | null;
  chunk_count: number | null;
  extra: JsonObject;
}

/** The minimal document listing item: `{ document_id, semantic_id, link }`. */
export interface DocumentListItem {
  document_id: string;
  semantic_id: string;
  link: string | null;
  /** Emulator extension: where the document is in the (asynchronous) indexing. */
  index_state: IndexState;
}

interface SummaryRow extends Omit<DocumentSummary, 'from_ingestion_api' | 'cc_pair_ids'> {
  from_ingestion_api: number;
  cc_pair_ids: string | null;
}

interface DocumentRow extends SummaryRow {
  sections: string;
  metadata: string;
  primary_owners: string | null;
  secondary_owners: string | null;
  chunk_count: number | null;
  extra: string;
}

const SUMMARY_COLUMNS = `d.seq, d.id, d.semantic_identifier, d.title, d.source, d.link,
  d.from_ingestion_api, d.doc_updated_at, d.index_state, d.queued_at, d.indexed_at,
  d.time_created, d.time_updated,
  (SELECT group_concat(p.cc_pair_id) FROM document_pairs p WHERE p.document_seq = d.seq) AS cc_pair_ids`;

const FULL_COLUMNS = `${SUMMARY_COLUMNS}, d.sections, d.metadata, d.primary_owners,
  d.secondary_owners, d.chunk_count, d.extra`;

function toSummary(row: SummaryRow): DocumentSummary {
  return {
    seq: row.seq,
    id: row.id,
    semantic_identifier: row.semantic_identifier,
    title: row.title,
    source: row.source,
    link: row.link,
    from_ingestion_api: row.from_ingestion_api === 1,
    doc_updated_at: row.doc_updated_at,
    index_state: row.index_state,
    queued_at: row.queued_at,
    indexed_at: row.indexed_at,
    time_created: row.time_created,
    time_updated: row.time_updated,
    cc_pair_ids: row.cc_pair_ids
      ? row.cc_pair_ids
          .split(',')
          .map(Number)
          .sort((a, b) => a - b)
      : [],
  };
}

function toDocument(row: DocumentRow): DocumentRecord {
  return {
    ...toSummary(row),
    sections: parseJson<unknown[]>(row.sections),
    metadata: parseJson<JsonObject>(row.metadata),
    primary_owners: parseJsonOrNull<unknown[]>(row.primary_owners),
    secondary_owners: parseJsonOrNull<unknown[]>(row.secondary_owners),
    chunk_count: row.chunk_count,
    extra: parseJson<JsonObject>(row.extra),
  };
}

/** A page of the most recent documents first; `limit` < 0 means no limit. */
type Page = { limit: number; offset: number };

/** The documents of a pair updated in a time range (ISO times, `from` included, `to` not). */
type PairRange = { pair_id: number; from: string; to: string };

/** What an index attempt of a pair reads: its documents changed in the attempt's time range. */
export interface PairRangeCounts {
  /** Documents updated in the range. */
  total: number;
  /** Of those, documents created in the range. */
  created: number;
  /** The first of them (oldest first), if any. */
  first: { id: string; link: string | null } | undefined;
}

const IN_PAIR_RANGE = `FROM document_pairs p JOIN documents d ON d.seq = p.document_seq
  WHERE p.cc_pair_id = @pair_id AND d.time_updated >= @from AND d.time_updated < @to`;

function prepare(db: Sqlite) {
  return {
    get: db.statement<{ id: string }, DocumentRow>(
      `SELECT ${FULL_COLUMNS} FROM documents d WHERE d.id = @id`,
    ),
    delete: db.statement<{ id: string }>('DELETE FROM documents WHERE id = @id'),
    listIngested: db.statement<NoParams, DocumentListItem>(
      `SELECT id AS document_id, semantic_identifier AS semantic_id, link, index_state
       FROM documents WHERE from_ingestion_api = 1 ORDER BY seq`,
    ),
    listOfPair: db.statement<{ pair_id: number }, DocumentListItem>(
      `SELECT d.id AS document_id, d.semantic_identifier AS semantic_id, d.link, d.index_state
       FROM document_pairs p JOIN documents d ON d.seq = p.document_seq
       WHERE p.cc_pair_id = @pair_id ORDER BY d.seq`,
    ),
    listSummaries: db.statement<Page, SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM documents d ORDER BY d.seq DESC LIMIT @limit OFFSET @offset`,
    ),
    list: db.statement<Page, DocumentRow>(
      `SELECT ${FULL_COLUMNS} FROM documents d ORDER BY d.seq DESC LIMIT @limit OFFSET @offset`,
    ),
    index: db.statement<{ limit: number; now: string }>(
      `UPDATE documents SET index_state = 'indexed', indexed_at = @now
       WHERE seq IN (SELECT seq FROM documents WHERE index_state = 'queued' ORDER BY seq
         LIMIT @limit)`,
    ),
    countQueued: db.column<NoParams, number>(
      "SELECT count(*) FROM documents WHERE index_state = 'queued'",
    ),
    count: db.column<NoParams, number>('SELECT count(*) FROM documents'),
    rangeCounts: db.statement<PairRange, { total: number; created: number }>(
      `SELECT count(*) AS total, coalesce(sum(d.time_created >= @from), 0) AS created
       ${IN_PAIR_RANGE}`,
    ),
    rangeFirst: db.statement<PairRange, { id: string; link: string | null }>(
      `SELECT d.id, d.link ${IN_PAIR_RANGE} ORDER BY d.seq LIMIT 1`,
    ),
  };
}

/** The documents. */
export class Documents {
  private readonly stmt: ReturnType<typeof prepare>;
  private readonly upserts: DocumentUpserts;
  private readonly grouped: GroupCommit<UpsertRequest, UpsertResult>;
  private queuedListener: (() => void) | undefined;

  constructor(
    db: Sqlite,
    private readonly now: () => string,
  ) {
    this.stmt = prepare(db);
    this.upserts = prepareUpserts(db);
    this.grouped = new GroupCommit({
      many: this.upserts.many,
      one: this.upserts.one,
      now,
      isOpen: () => db.open,
      committed: (results) => {
        if (results.some((r) => r.requeued)) this.queuedListener?.();
      },
    });
  }

  /**
   * Inserts or updates a document and attaches it to a pair, in one transaction committed before
   * this returns (see `document-upserts.ts`).
   */
  upsert(doc: DocumentWrite, pairId: number): UpsertResult {
    const result = this.upserts.one({ doc, pairId }, this.now());
    if (result.requeued) this.queuedListener?.();
    return result;
  }

  /** `upsert`, written with the others of this event-loop turn (see `group-commit.ts`). */
  upsertGrouped(doc: DocumentWrite, pairId: number): Promise<UpsertResult> {
    return this.grouped.write({ doc, pairId });
  }

  /** Calls `listener` after each commit that queued documents for indexing (the indexer's wake-up). */
  onQueued(listener: () => void): void {
    this.queuedListener = listener;
  }

  get(id: string): DocumentRecord | undefined {
    const row = this.stmt.get.get({ id });
    return row === undefined ? undefined : toDocument(row);
  }

  /** Deletes a document by stored id; false when there was none. */
  delete(id: string): boolean {
    return this.stmt.delete.run({ id }).changes > 0;
  }

  /** Documents created or updated through the ingestion API, oldest first. */
  listIngested(): DocumentListItem[] {
    return this.stmt.listIngested.all();
  }

  /** Documents attached to a pair, oldest first. */
  listOfPair(pairId: number): DocumentListItem[] {
    return this.stmt.listOfPair.all({ pair_id: pairId });
  }

  /** Most recent documents first. `limit` < 0 means no limit. */
  listSummaries(limit: number, offset = 0): DocumentSummary[] {
    return this.stmt.listSummaries.all({ limit, offset }).map(toSummary);
  }

  /** Most recent documents first, with their content. `limit` < 0 means no limit. */
  list(limit: number, offset = 0): DocumentRecord[] {
    return this.stmt.list.all({ limit, offset }).map(toDocument);
  }

  /** Moves up to `limit` queued documents to `indexed` (one statement); returns how many moved. */
  indexQueued(limit: number): number {
    return this.stmt.index.run({ limit, now: this.now() }).changes;
  }

  /** The pair's documents updated from `from` (included) to `to` (excluded), ISO times. */
  rangeOfPair(pairId: number, from: string, to: string): PairRangeCounts {
    const range = { pair_id: pairId, from, to };
    const counts = this.stmt.rangeCounts.get(range) ?? { total: 0, created: 0 };
    return { ...counts, first: this.stmt.rangeFirst.get(range) };
  }

  indexCounts(): IndexCounts {
    const total = this.stmt.count.get() ?? 0;
    const queued = this.stmt.countQueued.get() ?? 0;
    return { queued, indexed: total - queued, total };
  }
}
