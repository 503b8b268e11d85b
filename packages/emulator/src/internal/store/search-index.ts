// The search index (tables `index_documents`, `index_chunks` and the FTS5 table `chunk_text`):
// per search settings (the PRESENT index, and the FUTURE one of a model switch), each document's
// chunks with their text in a real full-text index, and the readers and document-set names the
// document was last stamped with. `documents.chunks` mirrors the PRESENT chunk count, for the
// ingestion's hash gate and listings.
import type { Sqlite } from './sqlite.js';

/** One chunk to write: its text and the link of the section it starts in. */
export interface ChunkWrite {
  text: string;
  link: string | null;
}

/** What a document is stamped with in an index: who may see it, which sets it is in. */
export interface IndexStamp {
  readers: readonly string[];
  set_names: readonly string[];
}

export interface IndexEntry extends IndexStamp {
  chunk_count: number;
}

/** A chunk found by a search, with what the filters and the answer read of its document. */
export interface ChunkHit {
  seq: number;
  chunk_ind: number;
  link: string | null;
  content: string;
  /** The text with matched words marked, for a keyword hit. */
  highlighted: string | null;
  /** Higher is better, for a keyword hit. */
  score: number | null;
  readers: string;
  set_names: string;
  id: string;
  semantic_identifier: string;
  source: string;
  metadata: string;
  doc_updated_at: string;
  time_created: string;
  extra: string;
  hidden: number;
  boost: number;
  primary_owners: string | null;
  secondary_owners: string | null;
}

// FTS5 functions and MATCH take the table's own name, never an alias.
const HIT_COLUMNS = `c.document_seq AS seq, c.chunk_ind, c.link, chunk_text.content,
  x.readers, x.set_names, d.id, d.semantic_identifier, d.source, d.metadata, d.doc_updated_at,
  d.time_created, d.extra, d.hidden, d.boost, d.primary_owners, d.secondary_owners`;

type Doc = { settings_id: number; seq: number };

interface EntryRow {
  readers: string;
  set_names: string;
  chunk_count: number;
}

function prepare(db: Sqlite) {
  return {
    dropChunks: db.statement<Doc>(
      'DELETE FROM index_chunks WHERE settings_id = @settings_id AND document_seq = @seq',
    ),
    dropEntry: db.statement<Doc>(
      'DELETE FROM index_documents WHERE settings_id = @settings_id AND document_seq = @seq',
    ),
    addChunk: db.statement<Doc & { chunk_ind: number; link: string | null }>(
      `INSERT INTO index_chunks (settings_id, document_seq, chunk_ind, link)
       VALUES (@settings_id, @seq, @chunk_ind, @link)`,
    ),
    addText: db.statement<{ rowid: number | bigint; content: string }>(
      'INSERT INTO chunk_text (rowid, content) VALUES (@rowid, @content)',
    ),
    putEntry: db.statement<Doc & { readers: string; set_names: string; chunk_count: number }>(
      `INSERT INTO index_documents (settings_id, document_seq, readers, set_names, chunk_count)
       VALUES (@settings_id, @seq, @readers, @set_names, @chunk_count)
       ON CONFLICT (settings_id, document_seq) DO UPDATE SET readers = excluded.readers,
         set_names = excluded.set_names, chunk_count = excluded.chunk_count`,
    ),
    stamp: db.statement<Doc & { readers: string; set_names: string }>(
      `UPDATE index_documents SET readers = @readers, set_names = @set_names
       WHERE settings_id = @settings_id AND document_seq = @seq`,
    ),
    entry: db.statement<Doc, EntryRow>(
      `SELECT readers, set_names, chunk_count FROM index_documents
       WHERE settings_id = @settings_id AND document_seq = @seq`,
    ),
    chunks: db.statement<Doc, { chunk_ind: number; content: string; link: string | null }>(
      `SELECT c.chunk_ind, chunk_text.content, c.link FROM index_chunks c
       JOIN chunk_text ON chunk_text.rowid = c.id
       WHERE c.settings_id = @settings_id AND c.document_seq = @seq ORDER BY c.chunk_ind`,
    ),
    mirror: db.statement<{ seq: number; chunks: number }>(
      'UPDATE documents SET chunks = @chunks WHERE seq = @seq',
    ),
    mirrorAll: db.statement<{ settings_id: number }>(
      `UPDATE documents SET chunks = coalesce((SELECT x.chunk_count FROM index_documents x
         WHERE x.settings_id = @settings_id AND x.document_seq = documents.seq), 0)`,
    ),
    keyword: db.statement<
      { settings_id: number; query: string; limit: number; offset: number },
      ChunkHit
    >(
      `SELECT ${HIT_COLUMNS}, highlight(chunk_text, 0, '<hi>', '</hi>') AS highlighted,
         -bm25(chunk_text) AS score
       FROM chunk_text JOIN index_chunks c ON c.id = chunk_text.rowid
       JOIN index_documents x ON x.settings_id = c.settings_id AND x.document_seq = c.document_seq
       JOIN documents d ON d.seq = c.document_seq
       WHERE chunk_text MATCH @query AND c.settings_id = @settings_id
       ORDER BY bm25(chunk_text), c.id LIMIT @limit OFFSET @offset`,
    ),
    shuffled: db.column<{ settings_id: number }, number>(
      'SELECT id FROM index_chunks WHERE settings_id = @settings_id ORDER BY random()',
    ),
    chunkById: db.statement<{ id: number }, ChunkHit>(
      `SELECT ${HIT_COLUMNS}, NULL AS highlighted, NULL AS score
       FROM index_chunks c JOIN chunk_text ON chunk_text.rowid = c.id
       JOIN index_documents x ON x.settings_id = c.settings_id AND x.document_seq = c.document_seq
       JOIN documents d ON d.seq = c.document_seq
       WHERE c.id = @id`,
    ),
    documentsOf: db.column<{ settings_id: number }, number>(
      'SELECT document_seq FROM index_documents WHERE settings_id = @settings_id',
    ),
    dropIndexChunks: db.statement<{ settings_id: number }>(
      'DELETE FROM index_chunks WHERE settings_id = @settings_id',
    ),
    dropIndexEntries: db.statement<{ settings_id: number }>(
      'DELETE FROM index_documents WHERE settings_id = @settings_id',
    ),
  };
}

/** Words of a query as FTS5 terms, any of them (keyword retrieval ranks by BM25). */
export function ftsQuery(query: string): string | undefined {
  const words = query.match(/[\p{L}\p{N}_]+/gu) ?? [];
  if (words.length === 0) return undefined;
  return words.map((w) => `"${w}"`).join(' OR ');
}

/** The search index. */
export class SearchIndex {
  private readonly stmt: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Sqlite,
    /** The id of the PRESENT settings, whose chunk counts `documents.chunks` mirrors. */
    private readonly presentId: () => number,
  ) {
    this.stmt = prepare(db);
  }

  /** Replaces a document's chunks and stamp in one index (call inside a transaction). */
  write(settingsId: number, seq: number, chunks: readonly ChunkWrite[], stamp: IndexStamp): void {
    const doc = { settings_id: settingsId, seq };
    this.stmt.dropChunks.run(doc);
    chunks.forEach((chunk, i) => {
      const id = this.stmt.addChunk.run({ ...doc, chunk_ind: i, link: chunk.link }).lastInsertRowid;
      this.stmt.addText.run({ rowid: id, content: chunk.text });
    });
    this.stmt.putEntry.run({
      ...doc,
      readers: JSON.stringify(stamp.readers),
      set_names: JSON.stringify(stamp.set_names),
      chunk_count: chunks.length,
    });
    if (settingsId === this.presentId()) this.stmt.mirror.run({ seq, chunks: chunks.length });
  }

  /** Removes a document's chunks from one index (the document stays stored); false when none. */
  drop(settingsId: number, seq: number): boolean {
    const doc = { settings_id: settingsId, seq };
    return this.db.transaction(() => {
      this.stmt.dropChunks.run(doc);
      const dropped = this.stmt.dropEntry.run(doc).changes > 0;
      if (settingsId === this.presentId()) this.stmt.mirror.run({ seq, chunks: 0 });
      return dropped;
    })();
  }

  /** Stamps a document anew (readers, set names) where the index holds it; its chunks stay. */
  stamp(settingsId: number, seq: number, stamp: IndexStamp): void {
    this.stmt.stamp.run({
      settings_id: settingsId,
      seq,
      readers: JSON.stringify(stamp.readers),
      set_names: JSON.stringify(stamp.set_names),
    });
  }

  entry(settingsId: number, seq: number): IndexEntry | undefined {
    const row = this.stmt.entry.get({ settings_id: settingsId, seq });
    if (row === undefined) return undefined;
    return {
      readers: JSON.parse(row.readers) as string[],
      set_names: JSON.parse(row.set_names) as string[],
      chunk_count: row.chunk_count,
    };
  }

  /** A document's chunks in one index, in order. */
  chunks(settingsId: number, seq: number) {
    return this.stmt.chunks.all({ settings_id: settingsId, seq });
  }

  /** One page of keyword hits, best first. */
  keywordPage(settingsId: number, query: string, limit: number, offset: number): ChunkHit[] {
    return this.stmt.keyword.all({ settings_id: settingsId, query, limit, offset });
  }

  /** Every chunk id of an index, in random order. */
  shuffledChunkIds(settingsId: number): number[] {
    return this.stmt.shuffled.all({ settings_id: settingsId });
  }

  chunkById(id: number): ChunkHit | undefined {
    return this.stmt.chunkById.get({ id });
  }

  /** The documents an index holds. */
  documentsOf(settingsId: number): number[] {
    return this.stmt.documentsOf.all({ settings_id: settingsId });
  }

  /** Empties an index (the PAST one after a swap). */
  dropIndex(settingsId: number): void {
    this.db.transaction(() => {
      this.stmt.dropIndexChunks.run({ settings_id: settingsId });
      this.stmt.dropIndexEntries.run({ settings_id: settingsId });
    })();
  }

  /** `documents.chunks` read again from the PRESENT index (after a swap). */
  mirrorPresent(): void {
    this.stmt.mirrorAll.run({ settings_id: this.presentId() });
  }
}
