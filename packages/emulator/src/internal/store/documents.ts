// Documents (table `documents`, attached to pairs through `document_pairs`): their upserts, the
// listings the API and the state view read, the indexing queue the background worker drains,
// their `hidden` flag and boost, and the embeddings counted for each (and in all).
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
  /** Hidden from ordinary search (admin keyword search still finds it). */
  hidden: boolean;
  boost: number;
  /** Times it was (re)chunked and embedded: pushes that wrote it, ports, new-index writes. */
  embeddings: number;
  /** Its chunks in the PRESENT index (0: stored but not searchable). */
  chunks: number;
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

interface SummaryRow
  extends Omit<DocumentSummary, 'from_ingestion_api' | 'cc_pair_ids' | 'hidden'> {
  from_ingestion_api: number;
  cc_pair_ids: string | null;
  hidden: number;
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
  d.time_created, d.time_updated, d.hidden, d.boost, d.embeddings, d.chunks,
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
    hidden: row.hidden === 1,
    boost: row.boost,
    embeddings: row.embeddings,
    chunks: row.chunks,
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
    bySeq: db.statement<{ seq: number }, DocumentRow>(
      `SELECT ${FULL_COLUMNS} FROM documents d WHERE d.seq = @seq`,
    ),
    queued: db.statement<{ limit: number }, DocumentRow>(
      `SELECT ${FULL_COLUMNS} FROM documents d WHERE d.index_state = 'queued' ORDER BY d.seq
       LIMIT @limit`,
    ),
    markIndexed: db.statement<{ seq: number; now: string }>(
      `UPDATE documents SET index_state = 'indexed', indexed_at = @now WHERE seq = @seq`,
    ),
    embedded: db.statement<{ seq: number }>(
      'UPDATE documents SET embeddings = embeddings + 1 WHERE seq = @seq',
    ),
    setHidden: db.statement<{ id: string; hidden: number }>(
      'UPDATE documents SET hidden = @hidden WHERE id = @id',
    ),
    setBoost: db.statement<{ id: string; boost: number }>(
      'UPDATE documents SET boost = @boost WHERE id = @id',
    ),
    boostedAsc: db.statement<{ limit: number }, DocumentRow>(
      `SELECT ${FULL_COLUMNS} FROM documents d ORDER BY d.boost, d.seq LIMIT @limit`,
    ),
    boostedDesc: db.statement<{ limit: number }, DocumentRow>(
      `SELECT ${FULL_COLUMNS} FROM documents d ORDER BY d.boost DESC, d.seq LIMIT @limit`,
    ),
    ofPairs: db.column<{ pairs: string }, number>(
      `SELECT DISTINCT document_seq FROM document_pairs
       WHERE cc_pair_id IN (SELECT value FROM json_each(@pairs))`,
    ),
    deleteAll: db.statement<NoParams>('DELETE FROM documents'),
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
  /** Embeddings in all since the emulator started (deleted documents' included). */
  embeddingTotal = 0;

  constructor(
    db: Sqlite,
    private readonly now: () => string,
    /** The `backend_version` the store plays (its hash gate and `already_existed`). */
    version: string | undefined,
  ) {
    this.stmt = prepare(db);
    this.upserts = prepareUpserts(db, version);
    this.grouped = new GroupCommit({
      many: this.upserts.many,
      one: this.upserts.one,
      now,
      isOpen: () => db.open,
      committed: (results) => {
        let queued = false;
        for (const r of results) {
          if (r.requeued) {
            queued = true;
            this.embeddingTotal++;
          }
        }
        if (queued) this.queuedListener?.();
      },
    });
  }

  /**
   * Inserts or updates a document and attaches it to a pair, in one transaction committed before
   * this returns (see `document-upserts.ts`); `indexFails` plays a failed index write.
   */
  upsert(doc: DocumentWrite, pairId: number, indexFails = false): UpsertResult {
    const result = this.upserts.one({ doc, pairId, indexFails }, this.now());
    if (result.requeued) {
      this.embeddingTotal++;
      this.queuedListener?.();
    }
    return result;
  }

  /** `upsert`, written with the others of this event-loop turn (see `group-commit.ts`). */
  upsertGrouped(doc: DocumentWrite, pairId: number, indexFails = false): Promise<UpsertResult> {
    return this.grouped.write({ doc, pairId, indexFails });
  }

  /** Counts one more embedding of a document (a port, a write of the new index). */
  countEmbedding(seq: number): void {
    this.stmt.embedded.run({ seq });
    this.embeddingTotal++;
  }

  /** Calls `listener` after each commit that queued documents for indexing (the indexer's wake-up). */
  onQueued(listener: () => void): void {
    this.queuedListener = listener;
  }

  get(id: string): DocumentRecord | undefined {
    const row = this.stmt.get.get({ id });
    return row === undefined ? undefined : toDocument(row);
  }

  bySeq(seq: number): DocumentRecord | undefined {
    const row = this.stmt.bySeq.get({ seq });
    return row === undefined ? undefined : toDocument(row);
  }

  /** Deletes a document by stored id (its chunks in every index go with it); false when none. */
  delete(id: string): boolean {
    return this.stmt.delete.run({ id }).changes > 0;
  }

  /** Deletes every document (a legacy `instant` model swap). */
  deleteAll(): void {
    this.stmt.deleteAll.run();
  }

  /** Sets the `hidden` flag; false when there is no such document. */
  setHidden(id: string, hidden: boolean): boolean {
    return this.stmt.setHidden.run({ id, hidden: hidden ? 1 : 0 }).changes > 0;
  }

  /** Sets the boost; false when there is no such document. */
  setBoost(id: string, boost: number): boolean {
    return this.stmt.setBoost.run({ id, boost }).changes > 0;
  }

  /** Documents by boost, highest first (or lowest with `ascending`). */
  byBoost(ascending: boolean, limit: number): DocumentRecord[] {
    const stmt = ascending ? this.stmt.boostedAsc : this.stmt.boostedDesc;
    return stmt.all({ limit }).map(toDocument);
  }

  /** The documents attached to any of these pairs (by seq). */
  ofPairs(pairIds: readonly number[]): number[] {
    return this.stmt.ofPairs.all({ pairs: JSON.stringify(pairIds) });
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

  /** Up to `limit` queued documents, oldest first, with their content. */
  queued(limit: number): DocumentRecord[] {
    return this.stmt.queued.all({ limit }).map(toDocument);
  }

  /** Marks a document indexed (its chunks were written, or its indexing failed). */
  markIndexed(seq: number): void {
    this.stmt.markIndexed.run({ seq, now: this.now() });
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
