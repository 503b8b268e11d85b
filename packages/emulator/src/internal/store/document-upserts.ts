// Writing a document: insert it, or update it when its content changed, and attach it to a pair,
// in one transaction. New or changed content is (re)queued for indexing; a re-post of the same
// content (only `doc_updated_at` may differ) keeps its indexing state.
import { createHash } from 'node:crypto';
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
  already_existed: boolean;
  /** True when the document was new or its content changed (it is queued for indexing). */
  requeued: boolean;
}

/** One upsert: the document and the pair it is posted to. */
export interface UpsertRequest {
  doc: DocumentWrite;
  pairId: number;
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
}

/** What decides whether a re-post changed a document (every stored field but its id and dates). */
function contentHash(p: DocumentParams): string {
  const parts = [
    p.semantic_identifier,
    p.title ?? '\u0001',
    p.source,
    p.sections,
    p.metadata,
    p.primary_owners ?? '',
    p.secondary_owners ?? '',
    String(p.chunk_count),
    p.extra,
  ];
  return createHash('sha1').update(parts.join('\0')).digest('base64');
}

// One object literal, no spreads: this runs once per ingested document.
function documentParams(doc: DocumentWrite, now: string): DocumentParams {
  const params: DocumentParams = {
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
    content_hash: '',
    now,
  };
  params.content_hash = contentHash(params);
  return params;
}

type Seq = { seq: number };

function prepare(db: Sqlite) {
  return {
    find: db.statement<{ id: string }, Seq & { content_hash: string }>(
      'SELECT seq, content_hash FROM documents WHERE id = @id',
    ),
    insert: db.statement<DocumentParams>(
      `INSERT INTO documents (id, semantic_identifier, title, source, link, sections, metadata,
         primary_owners, secondary_owners, doc_updated_at, chunk_count, extra,
         from_ingestion_api, content_hash, index_state, queued_at, indexed_at, time_created,
         time_updated)
       VALUES (@id, @semantic_identifier, @title, @source, @link, @sections, @metadata,
         @primary_owners, @secondary_owners, @doc_updated_at, @chunk_count, @extra,
         @from_ingestion_api, @content_hash, 'queued', @now, NULL, @now, @now)`,
    ),
    updateContent: db.statement<DocumentParams>(
      `UPDATE documents SET semantic_identifier = @semantic_identifier, title = @title,
         source = @source, link = @link, sections = @sections, metadata = @metadata,
         primary_owners = @primary_owners, secondary_owners = @secondary_owners,
         doc_updated_at = @doc_updated_at, chunk_count = @chunk_count, extra = @extra,
         from_ingestion_api = @from_ingestion_api, content_hash = @content_hash,
         index_state = 'queued', queued_at = @now, indexed_at = NULL, time_updated = @now
       WHERE id = @id`,
    ),
    touch: db.statement<Seq & { from_ingestion_api: number; doc_updated_at: string; now: string }>(
      `UPDATE documents SET from_ingestion_api = max(from_ingestion_api, @from_ingestion_api),
         doc_updated_at = @doc_updated_at, time_updated = @now
       WHERE seq = @seq`,
    ),
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

export function prepareUpserts(db: Sqlite): DocumentUpserts {
  const stmt = prepare(db);
  const upsert = ({ doc, pairId }: UpsertRequest, now: string): UpsertResult => {
    const params = documentParams(doc, now);
    const existing = stmt.find.get({ id: doc.id });
    let seq: number;
    let requeued = true;
    if (existing === undefined) {
      seq = Number(stmt.insert.run(params).lastInsertRowid);
    } else if (existing.content_hash !== params.content_hash) {
      seq = existing.seq;
      stmt.updateContent.run(params);
    } else {
      seq = existing.seq;
      requeued = false;
      const { from_ingestion_api, doc_updated_at } = params;
      stmt.touch.run({ seq, from_ingestion_api, doc_updated_at, now });
    }
    stmt.attach.run({ pair_id: pairId, seq });
    return { already_existed: existing !== undefined, requeued };
  };
  return {
    one: db.transaction(upsert),
    many: db.transaction((requests: UpsertRequest[], now: string) =>
      requests.map((request) => upsert(request, now)),
    ),
  };
}
