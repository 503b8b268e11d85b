// Writing a pushed document, as the servers' hash gate decides (`ingestionDecision` of the rule
// book, `indexing_pipeline.py:340-408`): a new id is inserted, a re-embed rewrites the row, resets
// `hidden` and the boost and queues it for indexing, a skip only attaches the pair. The stored
// hash and time move only with a successful index write; a write whose indexing fails (a fault)
// stores the row and leaves the index as it was. One transaction per document.
import { createHash } from 'node:crypto';
import {
  alreadyExistedAnswer,
  contentHashInput,
  type IngestionDecision,
  ingestionDecision,
  REEMBED_RESETS,
} from '@kis/rules';
import { type JsonObject, jsonOrNull } from './json-columns.js';
import type { Sqlite } from './sqlite.js';

/** A document as the store upserts it (already normalised: stored id, source, timestamps). */
export interface DocumentWrite {
  id: string;
  semantic_identifier: string;
  title: string | null;
  source: string;
  link: string | null;
  sections: unknown[];
  metadata: JsonObject;
  primary_owners: unknown[] | null;
  secondary_owners: unknown[] | null;
  doc_updated_at: string;
  chunk_count: number | null;
  extra: JsonObject;
  from_ingestion_api: boolean;
}

export interface UpsertResult {
  /** The answer's `already_existed`, as the server's release words it. */
  already_existed: boolean;
  /** True when the document was queued for indexing (new or re-embedded). */
  requeued: boolean;
  decision: IngestionDecision;
  /** True when the write's indexing failed: the row is stored, the index unchanged. */
  failed: boolean;
}

/** One upsert: the document, the pair it is posted to, and whether its indexing fails. */
export interface UpsertRequest {
  doc: DocumentWrite;
  pairId: number;
  indexFails?: boolean | undefined;
}

/** A document's written columns, as the insert and the content update bind them. */
interface DocumentParams {
  id: string;
  semantic_identifier: string;
  title: string | null;
  source: string;
  link: string | null;
  sections: string;
  metadata: string;
  primary_owners: string | null;
  secondary_owners: string | null;
  doc_updated_at: string;
  chunk_count: number | null;
  extra: string;
  from_ingestion_api: number;
  content_hash: string;
  now: string;
  /** The index state of an insert: `queued`, or `indexed` when its indexing failed. */
  state: string;
  /** Embeddings an insert counts (0 when its indexing failed). */
  embeddings: number;
  hidden: number;
  boost: number;
}

/** MD5 of what the servers' hash covers (the rule book's `contentHashInput`). */
function contentHash(doc: DocumentWrite): string {
  return createHash('md5').update(contentHashInput(doc)).digest('hex');
}

// One object literal, no spreads: this runs once per ingested document.
function documentParams(doc: DocumentWrite, now: string): DocumentParams {
  return {
    id: doc.id,
    semantic_identifier: doc.semantic_identifier,
    title: doc.title,
    source: doc.source,
    link: doc.link,
    sections: JSON.stringify(doc.sections),
    metadata: JSON.stringify(doc.metadata),
    primary_owners: jsonOrNull(doc.primary_owners),
    secondary_owners: jsonOrNull(doc.secondary_owners),
    doc_updated_at: doc.doc_updated_at,
    chunk_count: doc.chunk_count,
    extra: JSON.stringify(doc.extra),
    from_ingestion_api: doc.from_ingestion_api ? 1 : 0,
    content_hash: contentHash(doc),
    now,
    state: 'queued',
    embeddings: 1,
    hidden: REEMBED_RESETS.hidden ? 1 : 0,
    boost: REEMBED_RESETS.boost,
  };
}

type Seq = { seq: number };

interface StoredRow extends Seq {
  content_hash: string;
  doc_updated_at: string;
  index_state: string;
  chunks: number;
}

const CONTENT = `semantic_identifier = @semantic_identifier, title = @title,
  source = @source, link = @link, sections = @sections, metadata = @metadata,
  primary_owners = @primary_owners, secondary_owners = @secondary_owners,
  chunk_count = @chunk_count, extra = @extra, from_ingestion_api = @from_ingestion_api,
  time_updated = @now`;

function prepare(db: Sqlite) {
  return {
    find: db.statement<{ id: string }, StoredRow>(
      'SELECT seq, content_hash, doc_updated_at, index_state, chunks FROM documents WHERE id = @id',
    ),
    insert: db.statement<DocumentParams>(
      `INSERT INTO documents (id, semantic_identifier, title, source, link, sections, metadata,
         primary_owners, secondary_owners, doc_updated_at, chunk_count, extra,
         from_ingestion_api, content_hash, index_state, queued_at, indexed_at, time_created,
         time_updated, embeddings)
       VALUES (@id, @semantic_identifier, @title, @source, @link, @sections, @metadata,
         @primary_owners, @secondary_owners, @doc_updated_at, @chunk_count, @extra,
         @from_ingestion_api, @content_hash, @state, @now,
         CASE WHEN @state = 'indexed' THEN @now END, @now, @now, @embeddings)`,
    ),
    reembed: db.statement<DocumentParams>(
      `UPDATE documents SET ${CONTENT}, doc_updated_at = @doc_updated_at,
         content_hash = @content_hash, index_state = 'queued', queued_at = @now,
         indexed_at = NULL, hidden = @hidden, boost = @boost, embeddings = embeddings + 1
       WHERE id = @id`,
    ),
    // A failed index write: the row takes the content, the hash and time stay.
    failedWrite: db.statement<DocumentParams>(`UPDATE documents SET ${CONTENT} WHERE id = @id`),
    attach: db.statement<{ pair_id: number } & Seq>(
      'INSERT OR IGNORE INTO document_pairs (cc_pair_id, document_seq) VALUES (@pair_id, @seq)',
    ),
  };
}

/** Document upserts, each committed before it returns: one alone, or many in one transaction. */
export interface DocumentUpserts {
  one(request: UpsertRequest, now: string): UpsertResult;
  many(requests: UpsertRequest[], now: string): UpsertResult[];
}

/**
 * True when the index held no chunk of the document and will not (it was stored without chunks):
 * a successful write is then new to the index, as for a new id.
 */
function newToIndex(existing: StoredRow | undefined): boolean {
  return existing === undefined || (existing.chunks === 0 && existing.index_state !== 'queued');
}

/** The upserts of a server of `version` (its `backend_version`; undefined: the newest). */
export function prepareUpserts(db: Sqlite, version: string | undefined): DocumentUpserts {
  const stmt = prepare(db);
  const upsert = ({ doc, pairId, indexFails = false }: UpsertRequest, now: string) => {
    const params = documentParams(doc, now);
    const existing = stmt.find.get({ id: doc.id });
    const stored =
      existing === undefined
        ? undefined
        : { updatedAt: existing.doc_updated_at, contentHash: existing.content_hash };
    const sent = { updatedAt: params.doc_updated_at, contentHash: params.content_hash };
    const decision = ingestionDecision(stored, sent, version);
    const failed = indexFails && decision !== 'skip';
    let seq = existing?.seq ?? 0;
    if (existing === undefined) {
      if (failed) {
        params.state = 'indexed';
        params.embeddings = 0;
        params.content_hash = '';
      }
      seq = Number(stmt.insert.run(params).lastInsertRowid);
    } else if (decision === 'reembed' && failed) {
      stmt.failedWrite.run(params);
    } else if (decision === 'reembed') {
      stmt.reembed.run(params);
    }
    stmt.attach.run({ pair_id: pairId, seq });
    const wroteNew = decision !== 'skip' && !failed && newToIndex(existing);
    return {
      already_existed: alreadyExistedAnswer(wroteNew, version),
      requeued: decision !== 'skip' && !failed,
      decision,
      failed,
    };
  };
  return {
    one: db.transaction(upsert),
    many: db.transaction((requests: UpsertRequest[], now: string) =>
      requests.map((request) => upsert(request, now)),
    ),
  };
}
