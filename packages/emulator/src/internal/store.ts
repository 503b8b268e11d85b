// The emulator's state, in SQLite (better-sqlite3): WAL journal, synchronous=NORMAL, prepared
// statements only. Every write is committed before the HTTP answer is sent, so an acknowledged
// write survives the emulator's process being killed (only a power loss can lose the last commits
// in WAL mode with synchronous=NORMAL).
import { createHash, randomUUID } from 'node:crypto';
import {
  DEFAULT_CC_PAIR_ID,
  DEFAULT_CREDENTIAL_ID,
  DEFAULT_CREDENTIAL_SOURCE,
  DEFAULT_DOCUMENT_SOURCE,
} from '@kis/rules';
import Database from 'better-sqlite3';

/**
 * 2: uploaded files have a uuid record id; pairs keep their processing mode.
 * 3: connectors have an update time; pairs have a status.
 */
export const SCHEMA_VERSION = 3;

/** A pair's state (the spec's `CcPairStatus`). */
export type PairStatus =
  | 'SCHEDULED'
  | 'INITIAL_INDEXING'
  | 'ACTIVE'
  | 'PAUSED'
  | 'DELETING'
  | 'INVALID';

/** The state of a new pair. */
export const DEFAULT_PAIR_STATUS: PairStatus = 'ACTIVE';

/** The connector of the default pair (source `ingestion_api`). */
export const DEFAULT_CONNECTOR_ID = 0;

export type IndexState = 'queued' | 'indexed';
export type JsonObject = Record<string, unknown>;

export interface ConnectorRecord {
  id: number;
  name: string;
  source: string;
  input_type: string | null;
  access_type: string | null;
  connector_specific_config: JsonObject;
  refresh_freq: number | null;
  prune_freq: number | null;
  indexing_start: string | null;
  groups: number[];
  time_created: string;
  time_updated: string;
}

export interface CredentialRecord {
  id: number;
  name: string | null;
  source: string;
  credential_json: JsonObject;
  admin_public: boolean;
  curator_public: boolean;
  groups: number[];
  time_created: string;
  time_updated: string;
  private_key: {
    file_name: string;
    content_type: string;
    size: number;
    field_key: string;
    type_definition_key: string;
  } | null;
}

export interface PairRecord {
  id: number;
  connector_id: number;
  credential_id: number;
  name: string | null;
  access_type: string;
  groups: number[];
  auto_sync_options: JsonObject | null;
  processing_mode: string | null;
  status: PairStatus;
  time_created: string;
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

interface PendingUpsert {
  doc: DocumentWrite;
  pairId: number;
  resolve: (result: UpsertResult) => void;
  reject: (error: unknown) => void;
}

export interface UserFileRecord {
  id: number;
  /** The record's uuid (deployed servers' `id` of an uploaded file). */
  uid: string;
  file_id: string;
  name: string;
  file_type: string;
  size: number;
  status: string;
  project_id: number | null;
  created_at: string;
}

export interface ConnectorWrite {
  name: string;
  source: string;
  input_type: string | null;
  access_type: string | null;
  connector_specific_config: JsonObject;
  refresh_freq: number | null;
  prune_freq: number | null;
  indexing_start: string | null;
  groups: number[];
}

export interface CredentialWrite {
  name: string | null;
  source: string;
  credential_json: JsonObject;
  admin_public: boolean;
  curator_public: boolean;
  groups: number[];
}

export interface PairWrite {
  connector_id: number;
  credential_id: number;
  name: string | null;
  access_type: string;
  groups: number[];
  auto_sync_options: JsonObject | null;
  processing_mode: string | null;
}

export interface PrivateKeyWrite {
  name: string;
  credential_json: JsonObject;
  field_key: string;
  type_definition_key: string;
  file_name: string;
  content_type: string;
  data: Uint8Array;
}

export interface UploadWrite {
  name: string;
  file_type: string;
  data: Uint8Array;
  project_id: number | null;
}

export interface IndexCounts {
  queued: number;
  indexed: number;
  total: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS credentials (
  id INTEGER PRIMARY KEY,
  name TEXT,
  source TEXT NOT NULL,
  credential_json TEXT NOT NULL,
  admin_public INTEGER NOT NULL,
  curator_public INTEGER NOT NULL,
  groups TEXT NOT NULL,
  private_key_file_name TEXT,
  private_key_content_type TEXT,
  private_key_field_key TEXT,
  private_key_type_definition_key TEXT,
  private_key BLOB,
  time_created TEXT NOT NULL,
  time_updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS connectors (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  source TEXT NOT NULL,
  input_type TEXT,
  access_type TEXT,
  connector_specific_config TEXT NOT NULL,
  refresh_freq INTEGER,
  prune_freq INTEGER,
  indexing_start TEXT,
  groups TEXT NOT NULL,
  time_created TEXT NOT NULL,
  time_updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS cc_pairs (
  id INTEGER PRIMARY KEY,
  connector_id INTEGER NOT NULL REFERENCES connectors(id),
  credential_id INTEGER NOT NULL REFERENCES credentials(id),
  name TEXT,
  access_type TEXT NOT NULL,
  groups TEXT NOT NULL,
  auto_sync_options TEXT,
  processing_mode TEXT,
  status TEXT NOT NULL DEFAULT 'ACTIVE',
  time_created TEXT NOT NULL,
  UNIQUE (connector_id, credential_id)
);
CREATE TABLE IF NOT EXISTS documents (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  semantic_identifier TEXT NOT NULL,
  title TEXT,
  source TEXT NOT NULL,
  link TEXT,
  sections TEXT NOT NULL,
  metadata TEXT NOT NULL,
  primary_owners TEXT,
  secondary_owners TEXT,
  doc_updated_at TEXT NOT NULL,
  chunk_count INTEGER,
  extra TEXT NOT NULL,
  from_ingestion_api INTEGER NOT NULL,
  content_hash TEXT NOT NULL,
  index_state TEXT NOT NULL CHECK (index_state IN ('queued', 'indexed')),
  queued_at TEXT NOT NULL,
  indexed_at TEXT,
  time_created TEXT NOT NULL,
  time_updated TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_queued ON documents(seq) WHERE index_state = 'queued';
CREATE TABLE IF NOT EXISTS document_pairs (
  cc_pair_id INTEGER NOT NULL REFERENCES cc_pairs(id),
  document_seq INTEGER NOT NULL REFERENCES documents(seq) ON DELETE CASCADE,
  PRIMARY KEY (cc_pair_id, document_seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS document_pairs_document ON document_pairs(document_seq);
CREATE TABLE IF NOT EXISTS user_files (
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL UNIQUE,
  file_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  file_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  data BLOB NOT NULL,
  status TEXT NOT NULL,
  project_id INTEGER,
  created_at TEXT NOT NULL
);
`;

interface CredentialRow {
  id: number;
  name: string | null;
  source: string;
  credential_json: string;
  admin_public: number;
  curator_public: number;
  groups: string;
  private_key_file_name: string | null;
  private_key_content_type: string | null;
  private_key_field_key: string | null;
  private_key_type_definition_key: string | null;
  private_key_size: number | null;
  time_created: string;
  time_updated: string;
}

interface ConnectorRow {
  id: number;
  name: string;
  source: string;
  input_type: string | null;
  access_type: string | null;
  connector_specific_config: string;
  refresh_freq: number | null;
  prune_freq: number | null;
  indexing_start: string | null;
  groups: string;
  time_created: string;
  time_updated: string;
}

interface PairRow {
  id: number;
  connector_id: number;
  credential_id: number;
  name: string | null;
  access_type: string;
  groups: string;
  auto_sync_options: string | null;
  processing_mode: string | null;
  status: PairStatus;
  time_created: string;
}

interface DocumentSummaryRow {
  seq: number;
  id: string;
  semantic_identifier: string;
  title: string | null;
  source: string;
  link: string | null;
  from_ingestion_api: number;
  doc_updated_at: string;
  index_state: IndexState;
  queued_at: string;
  indexed_at: string | null;
  time_created: string;
  time_updated: string;
  cc_pair_ids: string | null;
}

interface DocumentRow extends DocumentSummaryRow {
  sections: string;
  metadata: string;
  primary_owners: string | null;
  secondary_owners: string | null;
  chunk_count: number | null;
  extra: string;
}

const CREDENTIAL_COLUMNS = `id, name, source, credential_json, admin_public, curator_public, groups,
  private_key_file_name, private_key_content_type, private_key_field_key,
  private_key_type_definition_key, length(private_key) AS private_key_size,
  time_created, time_updated`;

const SUMMARY_COLUMNS = `d.seq, d.id, d.semantic_identifier, d.title, d.source, d.link,
  d.from_ingestion_api, d.doc_updated_at, d.index_state, d.queued_at, d.indexed_at,
  d.time_created, d.time_updated,
  (SELECT group_concat(p.cc_pair_id) FROM document_pairs p WHERE p.document_seq = d.seq) AS cc_pair_ids`;

const FULL_COLUMNS = `${SUMMARY_COLUMNS}, d.sections, d.metadata, d.primary_owners,
  d.secondary_owners, d.chunk_count, d.extra`;

function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

function toCredential(row: CredentialRow): CredentialRecord {
  return {
    id: row.id,
    name: row.name,
    source: row.source,
    credential_json: parseJson<JsonObject>(row.credential_json),
    admin_public: row.admin_public === 1,
    curator_public: row.curator_public === 1,
    groups: parseJson<number[]>(row.groups),
    time_created: row.time_created,
    time_updated: row.time_updated,
    private_key:
      row.private_key_file_name === null
        ? null
        : {
            file_name: row.private_key_file_name,
            content_type: row.private_key_content_type ?? 'application/octet-stream',
            size: row.private_key_size ?? 0,
            field_key: row.private_key_field_key ?? '',
            type_definition_key: row.private_key_type_definition_key ?? '',
          },
  };
}

function toConnector(row: ConnectorRow): ConnectorRecord {
  return {
    id: row.id,
    name: row.name,
    source: row.source,
    input_type: row.input_type,
    access_type: row.access_type,
    connector_specific_config: parseJson<JsonObject>(row.connector_specific_config),
    refresh_freq: row.refresh_freq,
    prune_freq: row.prune_freq,
    indexing_start: row.indexing_start,
    groups: parseJson<number[]>(row.groups),
    time_created: row.time_created,
    time_updated: row.time_updated,
  };
}

function toPair(row: PairRow): PairRecord {
  return {
    id: row.id,
    connector_id: row.connector_id,
    credential_id: row.credential_id,
    name: row.name,
    access_type: row.access_type,
    groups: parseJson<number[]>(row.groups),
    auto_sync_options:
      row.auto_sync_options === null ? null : parseJson<JsonObject>(row.auto_sync_options),
    processing_mode: row.processing_mode,
    status: row.status,
    time_created: row.time_created,
  };
}

function toSummary(row: DocumentSummaryRow): DocumentSummary {
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
    primary_owners: row.primary_owners === null ? null : parseJson<unknown[]>(row.primary_owners),
    secondary_owners:
      row.secondary_owners === null ? null : parseJson<unknown[]>(row.secondary_owners),
    chunk_count: row.chunk_count,
    extra: parseJson<JsonObject>(row.extra),
  };
}

function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** The minimal document listing item: `{ document_id, semantic_id, link }`. */
export interface DocumentListItem {
  document_id: string;
  semantic_id: string;
  link: string | null;
  /** Emulator extension: where the document is in the (asynchronous) indexing. */
  index_state: IndexState;
}

export interface StoreOptions {
  /** SQLite file path, or `:memory:`. */
  path: string;
  /** Clock, for tests. Defaults to `() => new Date()`. */
  now?: () => Date;
}

/** The emulator's state: one SQLite database, every statement prepared once. */
export class Store {
  readonly db: Database.Database;
  readonly path: string;
  private readonly now: () => Date;
  private readonly stmt;
  private readonly upsertTx: (doc: DocumentWrite, pairId: number, now: string) => UpsertResult;
  private readonly upsertBatchTx: (items: PendingUpsert[], now: string) => UpsertResult[];
  private pending: PendingUpsert[] = [];
  private flushScheduled = false;
  private queuedListener: (() => void) | undefined;
  private readonly indexTx: (limit: number, now: string) => number;

  constructor(options: StoreOptions) {
    this.path = options.path;
    this.now = options.now ?? (() => new Date());
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    // A bounded page cache (16 MiB) keeps the indexes' hot pages in memory as the store grows.
    this.db.pragma('cache_size = -16384');
    try {
      this.checkSchemaVersion();
    } catch (error) {
      this.db.close(); // a refused database is not kept open
      throw error;
    }
    this.db.exec(SCHEMA);

    const db = this.db;
    this.stmt = {
      insertCredential: db.prepare<
        [number | null, string | null, string, string, number, number, string, string, string]
      >(
        `INSERT INTO credentials (id, name, source, credential_json, admin_public, curator_public,
           groups, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      getCredential: db.prepare<[number], CredentialRow>(
        `SELECT ${CREDENTIAL_COLUMNS} FROM credentials WHERE id = ?`,
      ),
      listCredentials: db.prepare<[], CredentialRow>(
        `SELECT ${CREDENTIAL_COLUMNS} FROM credentials ORDER BY id`,
      ),
      updatePrivateKey: db.prepare<
        [string, string, string, string, string, string, Uint8Array, string, number]
      >(
        `UPDATE credentials SET name = ?, credential_json = ?, private_key_field_key = ?,
           private_key_type_definition_key = ?, private_key_file_name = ?,
           private_key_content_type = ?, private_key = ?, time_updated = ? WHERE id = ?`,
      ),
      insertConnector: db.prepare<
        [
          number | null,
          string,
          string,
          string | null,
          string | null,
          string,
          number | null,
          number | null,
          string | null,
          string,
          string,
          string,
        ]
      >(
        `INSERT INTO connectors (id, name, source, input_type, access_type,
           connector_specific_config, refresh_freq, prune_freq, indexing_start, groups,
           time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      updateConnector: db.prepare<
        [
          string,
          string,
          string | null,
          string | null,
          string,
          number | null,
          number | null,
          string | null,
          string,
          string,
          number,
        ]
      >(
        `UPDATE connectors SET name = ?, source = ?, input_type = ?, access_type = ?,
           connector_specific_config = ?, refresh_freq = ?, prune_freq = ?, indexing_start = ?,
           groups = ?, time_updated = ? WHERE id = ?`,
      ),
      deleteConnector: db.prepare<[number]>('DELETE FROM connectors WHERE id = ?'),
      connectorNameTaken: db
        .prepare<[string, string, number], number>(
          'SELECT 1 FROM connectors WHERE name = ? AND source = ? AND id <> ? LIMIT 1',
        )
        .pluck(),
      pairIdsOfConnector: db
        .prepare<[number], number>('SELECT id FROM cc_pairs WHERE connector_id = ? ORDER BY id')
        .pluck(),
      credentialIdsOfConnector: db
        .prepare<[number], number>(
          'SELECT credential_id FROM cc_pairs WHERE connector_id = ? ORDER BY id',
        )
        .pluck(),
      countPairsOfCredential: db
        .prepare<[number], number>('SELECT count(*) FROM cc_pairs WHERE credential_id = ?')
        .pluck(),
      renamePair: db.prepare<[string, number]>('UPDATE cc_pairs SET name = ? WHERE id = ?'),
      setPairStatus: db.prepare<[string, number]>('UPDATE cc_pairs SET status = ? WHERE id = ?'),
      pairDocumentCount: db
        .prepare<[number], number>('SELECT count(*) FROM document_pairs WHERE cc_pair_id = ?')
        .pluck(),
      deletePairOnlyDocuments: db.prepare<[number]>(
        `DELETE FROM documents WHERE seq IN (
           SELECT p.document_seq FROM document_pairs p WHERE p.cc_pair_id = ?
             AND NOT EXISTS (SELECT 1 FROM document_pairs o
               WHERE o.document_seq = p.document_seq AND o.cc_pair_id <> p.cc_pair_id))`,
      ),
      updateCredentialData: db.prepare<[string | null, string, string, number]>(
        'UPDATE credentials SET name = ?, credential_json = ?, time_updated = ? WHERE id = ?',
      ),
      deleteCredential: db.prepare<[number]>('DELETE FROM credentials WHERE id = ?'),
      getConnector: db.prepare<[number], ConnectorRow>('SELECT * FROM connectors WHERE id = ?'),
      listAllConnectors: db.prepare<[], ConnectorRow>('SELECT * FROM connectors ORDER BY id'),
      listCreatedConnectors: db.prepare<[], ConnectorRow>(
        `SELECT * FROM connectors c WHERE EXISTS
           (SELECT 1 FROM cc_pairs p WHERE p.connector_id = c.id) ORDER BY c.id`,
      ),
      insertPair: db.prepare<
        [
          number | null,
          number,
          number,
          string | null,
          string,
          string,
          string | null,
          string | null,
          string,
        ]
      >(
        `INSERT INTO cc_pairs (id, connector_id, credential_id, name, access_type, groups,
           auto_sync_options, processing_mode, time_created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      unlinkPairDocuments: db.prepare<[number]>('DELETE FROM document_pairs WHERE cc_pair_id = ?'),
      deletePair: db.prepare<[number]>('DELETE FROM cc_pairs WHERE id = ?'),
      findConnectorByNameAndSource: db.prepare<[string, string], { id: number }>(
        'SELECT id FROM connectors WHERE name = ? AND source = ? LIMIT 1',
      ),
      getPair: db.prepare<[number], PairRow>('SELECT * FROM cc_pairs WHERE id = ?'),
      findPair: db.prepare<[number, number], PairRow>(
        'SELECT * FROM cc_pairs WHERE connector_id = ? AND credential_id = ?',
      ),
      listPairs: db.prepare<[], PairRow>('SELECT * FROM cc_pairs ORDER BY id'),
      pairDocumentCounts: db.prepare<[], { cc_pair_id: number; documents: number }>(
        'SELECT cc_pair_id, count(*) AS documents FROM document_pairs GROUP BY cc_pair_id',
      ),
      findDocument: db.prepare<[string], { seq: number; content_hash: string }>(
        'SELECT seq, content_hash FROM documents WHERE id = ?',
      ),
      insertDocument: db.prepare<
        [
          string,
          string,
          string | null,
          string,
          string | null,
          string,
          string,
          string | null,
          string | null,
          string,
          number | null,
          string,
          number,
          string,
          string,
          string,
          string,
        ]
      >(
        `INSERT INTO documents (id, semantic_identifier, title, source, link, sections, metadata,
           primary_owners, secondary_owners, doc_updated_at, chunk_count, extra,
           from_ingestion_api, content_hash, index_state, queued_at, indexed_at, time_created,
           time_updated)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, NULL, ?, ?)`,
      ),
      updateDocumentContent: db.prepare<
        [
          string,
          string | null,
          string,
          string | null,
          string,
          string,
          string | null,
          string | null,
          string,
          number | null,
          string,
          number,
          string,
          string,
          string,
          number,
        ]
      >(
        `UPDATE documents SET semantic_identifier = ?, title = ?, source = ?, link = ?,
           sections = ?, metadata = ?, primary_owners = ?, secondary_owners = ?,
           doc_updated_at = ?, chunk_count = ?, extra = ?, from_ingestion_api = ?,
           content_hash = ?, index_state = 'queued', queued_at = ?, indexed_at = NULL,
           time_updated = ?
         WHERE seq = ?`,
      ),
      touchDocument: db.prepare<[number, string, string, number]>(
        `UPDATE documents SET from_ingestion_api = max(from_ingestion_api, ?), doc_updated_at = ?,
           time_updated = ? WHERE seq = ?`,
      ),
      linkDocument: db.prepare<[number, number]>(
        'INSERT OR IGNORE INTO document_pairs (cc_pair_id, document_seq) VALUES (?, ?)',
      ),
      getDocument: db.prepare<[string], DocumentRow>(
        `SELECT ${FULL_COLUMNS} FROM documents d WHERE d.id = ?`,
      ),
      deleteDocument: db.prepare<[number]>('DELETE FROM documents WHERE seq = ?'),
      listIngested: db.prepare<[], DocumentListItem>(
        `SELECT id AS document_id, semantic_identifier AS semantic_id, link, index_state
         FROM documents WHERE from_ingestion_api = 1 ORDER BY seq`,
      ),
      listPairDocuments: db.prepare<[number], DocumentListItem>(
        `SELECT d.id AS document_id, d.semantic_identifier AS semantic_id, d.link, d.index_state
         FROM document_pairs p JOIN documents d ON d.seq = p.document_seq
         WHERE p.cc_pair_id = ? ORDER BY d.seq`,
      ),
      listSummaries: db.prepare<[number, number], DocumentSummaryRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM documents d ORDER BY d.seq DESC LIMIT ? OFFSET ?`,
      ),
      listFull: db.prepare<[number, number], DocumentRow>(
        `SELECT ${FULL_COLUMNS} FROM documents d ORDER BY d.seq DESC LIMIT ? OFFSET ?`,
      ),
      indexBatch: db.prepare<[string, number]>(
        `UPDATE documents SET index_state = 'indexed', indexed_at = ?
         WHERE seq IN (SELECT seq FROM documents WHERE index_state = 'queued' ORDER BY seq LIMIT ?)`,
      ),
      countQueued: db
        .prepare<[], number>("SELECT count(*) FROM documents WHERE index_state = 'queued'")
        .pluck(),
      countDocuments: db.prepare<[], number>('SELECT count(*) FROM documents').pluck(),
      insertUserFile: db.prepare<
        [string, string, string, string, number, Uint8Array, string, number | null, string]
      >(
        `INSERT INTO user_files (uid, file_id, name, file_type, size, data, status, project_id,
           created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      getUserFile: db.prepare<[number], UserFileRecord>(
        `SELECT id, uid, file_id, name, file_type, size, status, project_id, created_at
         FROM user_files WHERE id = ?`,
      ),
      hasFile: db.prepare<[string], number>('SELECT 1 FROM user_files WHERE file_id = ?').pluck(),
      listUserFiles: db.prepare<[], UserFileRecord>(
        `SELECT id, uid, file_id, name, file_type, size, status, project_id, created_at
         FROM user_files ORDER BY id`,
      ),
    };

    const upsertOne = (doc: DocumentWrite, pairId: number, now: string): UpsertResult => {
      const s = this.stmt;
      const sections = JSON.stringify(doc.sections);
      const metadata = JSON.stringify(doc.metadata);
      const primary = jsonOrNull(doc.primary_owners);
      const secondary = jsonOrNull(doc.secondary_owners);
      const extra = JSON.stringify(doc.extra);
      const hash = createHash('sha1')
        .update(doc.semantic_identifier)
        .update('\0')
        .update(doc.title ?? '\u0001')
        .update('\0')
        .update(doc.source)
        .update('\0')
        .update(sections)
        .update('\0')
        .update(metadata)
        .update('\0')
        .update(primary ?? '')
        .update('\0')
        .update(secondary ?? '')
        .update('\0')
        .update(String(doc.chunk_count))
        .update('\0')
        .update(extra)
        .digest('base64');
      const existing = s.findDocument.get(doc.id);
      const fromApi = doc.from_ingestion_api ? 1 : 0;
      let seq: number;
      let requeued = false;
      if (existing === undefined) {
        const result = s.insertDocument.run(
          doc.id,
          doc.semantic_identifier,
          doc.title,
          doc.source,
          doc.link,
          sections,
          metadata,
          primary,
          secondary,
          doc.doc_updated_at,
          doc.chunk_count,
          extra,
          fromApi,
          hash,
          now,
          now,
          now,
        );
        seq = Number(result.lastInsertRowid);
        requeued = true;
      } else {
        seq = existing.seq;
        if (existing.content_hash !== hash) {
          s.updateDocumentContent.run(
            doc.semantic_identifier,
            doc.title,
            doc.source,
            doc.link,
            sections,
            metadata,
            primary,
            secondary,
            doc.doc_updated_at,
            doc.chunk_count,
            extra,
            fromApi,
            hash,
            now,
            now,
            seq,
          );
          requeued = true;
        } else {
          s.touchDocument.run(fromApi, doc.doc_updated_at, now, seq);
        }
      }
      s.linkDocument.run(pairId, seq);
      return { already_existed: existing !== undefined, requeued };
    };
    this.upsertTx = this.db.transaction(upsertOne);
    this.upsertBatchTx = this.db.transaction((items: PendingUpsert[], now: string) =>
      items.map((item) => upsertOne(item.doc, item.pairId, now)),
    );

    this.indexTx = this.db.transaction(
      (limit: number, now: string) => this.stmt.indexBatch.run(now, limit).changes,
    );

    this.seedDefaults();
  }

  /** Creates the schema in a new database, upgrades a version-1 or version-2 one, refuses others. */
  private checkSchemaVersion(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    const row = this.db
      .prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?')
      .get('schema_version');
    if (row?.value === '1') {
      this.upgradeFromVersion1();
      this.upgradeFromVersion2();
    } else if (row?.value === '2') {
      this.upgradeFromVersion2();
    } else if (row !== undefined && row.value !== String(SCHEMA_VERSION)) {
      throw new Error(
        `database ${this.path} has schema version ${row.value}, this emulator uses ${SCHEMA_VERSION}; start with a new --db file`,
      );
    }
    this.db
      .prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)')
      .run('schema_version', String(SCHEMA_VERSION));
  }

  private upgradeFromVersion1(): void {
    this.db.transaction(() => {
      this.db.exec(`ALTER TABLE cc_pairs ADD COLUMN processing_mode TEXT;
        ALTER TABLE user_files ADD COLUMN uid TEXT;`);
      const ids = this.db.prepare<[], number>('SELECT id FROM user_files').pluck().all();
      const setUid = this.db.prepare<[string, number]>(
        'UPDATE user_files SET uid = ? WHERE id = ?',
      );
      for (const id of ids) setUid.run(randomUUID(), id);
      this.db.exec('CREATE UNIQUE INDEX IF NOT EXISTS user_files_uid ON user_files(uid)');
    })();
  }

  /** Version 3: connectors get `time_updated` (their creation time), pairs `status` (ACTIVE). */
  private upgradeFromVersion2(): void {
    const columns = (table: string) =>
      this.db
        .prepare<[], { name: string }>(`PRAGMA table_info(${table})`)
        .all()
        .map((c) => c.name);
    this.db.transaction(() => {
      const connectorColumns = columns('connectors');
      if (connectorColumns.length > 0 && !connectorColumns.includes('time_updated')) {
        this.db.exec(`ALTER TABLE connectors ADD COLUMN time_updated TEXT;
          UPDATE connectors SET time_updated = time_created;`);
      }
      const pairColumns = columns('cc_pairs');
      if (pairColumns.length > 0 && !pairColumns.includes('status')) {
        this.db.exec(
          `ALTER TABLE cc_pairs ADD COLUMN status TEXT NOT NULL DEFAULT '${DEFAULT_PAIR_STATUS}'`,
        );
      }
    })();
  }

  private nowIso(): string {
    return this.now().toISOString();
  }

  /** Creates the default credential 0, connector 0 (`ingestion_api`) and pair 1 if missing. */
  private seedDefaults(): void {
    const now = this.nowIso();
    this.db.transaction(() => {
      if (this.stmt.getCredential.get(DEFAULT_CREDENTIAL_ID) === undefined) {
        // Deployed servers' default credential has no name.
        this.stmt.insertCredential.run(
          DEFAULT_CREDENTIAL_ID,
          null,
          DEFAULT_CREDENTIAL_SOURCE,
          '{}',
          1,
          0,
          '[]',
          now,
          now,
        );
      }
      if (this.stmt.getConnector.get(DEFAULT_CONNECTOR_ID) === undefined) {
        this.stmt.insertConnector.run(
          DEFAULT_CONNECTOR_ID,
          'Ingestion API',
          DEFAULT_DOCUMENT_SOURCE,
          'load_state',
          'public',
          '{}',
          null,
          null,
          null,
          '[]',
          now,
          now,
        );
      }
      if (this.stmt.getPair.get(DEFAULT_CC_PAIR_ID) === undefined) {
        this.stmt.insertPair.run(
          DEFAULT_CC_PAIR_ID,
          DEFAULT_CONNECTOR_ID,
          DEFAULT_CREDENTIAL_ID,
          'DefaultCCPair',
          'public',
          '[]',
          null,
          null,
          now,
        );
      }
    })();
  }

  // Connectors

  createConnector(input: ConnectorWrite): ConnectorRecord {
    const now = this.nowIso();
    const result = this.stmt.insertConnector.run(
      null,
      input.name,
      input.source,
      input.input_type,
      input.access_type,
      JSON.stringify(input.connector_specific_config),
      input.refresh_freq,
      input.prune_freq,
      input.indexing_start,
      JSON.stringify(input.groups),
      now,
      now,
    );
    return this.getConnector(Number(result.lastInsertRowid))!;
  }

  /** Replaces every field of a connector; undefined when there is no such connector. */
  updateConnector(id: number, input: ConnectorWrite): ConnectorRecord | undefined {
    const result = this.stmt.updateConnector.run(
      input.name,
      input.source,
      input.input_type,
      input.access_type,
      JSON.stringify(input.connector_specific_config),
      input.refresh_freq,
      input.prune_freq,
      input.indexing_start,
      JSON.stringify(input.groups),
      this.nowIso(),
      id,
    );
    return result.changes === 0 ? undefined : this.getConnector(id);
  }

  /** True when a connector other than `exceptId` has this name and source. */
  connectorNameTaken(name: string, source: string, exceptId: number): boolean {
    return this.stmt.connectorNameTaken.get(name, source, exceptId) === 1;
  }

  /**
   * Removes a connector and its pairs at once, in one transaction; their documents stay stored,
   * attached to no pair. False when there was no such connector.
   */
  deleteConnector(id: number): boolean {
    return this.db.transaction(() => {
      for (const pairId of this.stmt.pairIdsOfConnector.all(id)) {
        this.stmt.unlinkPairDocuments.run(pairId);
        this.stmt.deletePair.run(pairId);
      }
      return this.stmt.deleteConnector.run(id).changes > 0;
    })();
  }

  /** Ids of the credentials associated with a connector, in the order of their pairs. */
  credentialIdsOfConnector(id: number): number[] {
    return this.stmt.credentialIdsOfConnector.all(id);
  }

  /** The id of a connector with this name and source, if any. */
  findConnectorByNameAndSource(name: string, source: string): number | undefined {
    return this.stmt.findConnectorByNameAndSource.get(name, source)?.id;
  }

  getConnector(id: number): ConnectorRecord | undefined {
    const row = this.stmt.getConnector.get(id);
    return row === undefined ? undefined : toConnector(row);
  }

  /** Fully created connectors (with at least one credential association), or all of them. */
  listConnectors(options: { all?: boolean } = {}): ConnectorRecord[] {
    const rows = options.all
      ? this.stmt.listAllConnectors.all()
      : this.stmt.listCreatedConnectors.all();
    return rows.map(toConnector);
  }

  // Credentials

  createCredential(input: CredentialWrite): CredentialRecord {
    const now = this.nowIso();
    const result = this.stmt.insertCredential.run(
      null,
      input.name,
      input.source,
      JSON.stringify(input.credential_json),
      input.admin_public ? 1 : 0,
      input.curator_public ? 1 : 0,
      JSON.stringify(input.groups),
      now,
      now,
    );
    return this.getCredential(Number(result.lastInsertRowid))!;
  }

  getCredential(id: number): CredentialRecord | undefined {
    const row = this.stmt.getCredential.get(id);
    return row === undefined ? undefined : toCredential(row);
  }

  listCredentials(): CredentialRecord[] {
    return this.stmt.listCredentials.all().map(toCredential);
  }

  /** Sets a credential's name and JSON; undefined when there is no such credential. */
  updateCredentialData(
    id: number,
    name: string | null,
    credentialJson: JsonObject,
  ): CredentialRecord | undefined {
    const result = this.stmt.updateCredentialData.run(
      name,
      JSON.stringify(credentialJson),
      this.nowIso(),
      id,
    );
    return result.changes === 0 ? undefined : this.getCredential(id);
  }

  /** Number of pairs that use a credential. */
  pairsUsingCredential(id: number): number {
    return this.stmt.countPairsOfCredential.get(id) ?? 0;
  }

  /** Deletes a credential (the caller checks that no pair uses it); false when there was none. */
  deleteCredential(id: number): boolean {
    return this.stmt.deleteCredential.run(id).changes > 0;
  }

  /** Replaces a credential's name and JSON and stores the uploaded private-key file with it. */
  updateCredentialPrivateKey(id: number, input: PrivateKeyWrite): CredentialRecord | undefined {
    const result = this.stmt.updatePrivateKey.run(
      input.name,
      JSON.stringify(input.credential_json),
      input.field_key,
      input.type_definition_key,
      input.file_name,
      input.content_type,
      input.data,
      this.nowIso(),
      id,
    );
    return result.changes === 0 ? undefined : this.getCredential(id);
  }

  // Connector/credential pairs

  createPair(input: PairWrite): PairRecord {
    const result = this.stmt.insertPair.run(
      null,
      input.connector_id,
      input.credential_id,
      input.name,
      input.access_type,
      JSON.stringify(input.groups),
      input.auto_sync_options === null ? null : JSON.stringify(input.auto_sync_options),
      input.processing_mode,
      this.nowIso(),
    );
    return this.getPair(Number(result.lastInsertRowid))!;
  }

  /** Removes a pair at once; its documents stay stored, no longer attached to it. */
  deletePair(id: number): boolean {
    return this.db.transaction(() => {
      this.stmt.unlinkPairDocuments.run(id);
      return this.stmt.deletePair.run(id).changes > 0;
    })();
  }

  /** Sets a pair's name; false when there is no such pair. */
  renamePair(id: number, name: string): boolean {
    return this.stmt.renamePair.run(name, id).changes > 0;
  }

  /** Sets a pair's status; false when there is no such pair. */
  setPairStatus(id: number, status: PairStatus): boolean {
    return this.stmt.setPairStatus.run(status, id).changes > 0;
  }

  /** Number of documents attached to a pair. */
  pairDocumentCount(id: number): number {
    return this.stmt.pairDocumentCount.get(id) ?? 0;
  }

  /**
   * The end of a pair's deletion, in one transaction: its documents leave the store (those that
   * another pair also holds stay, attached to that pair only), then the pair, then its connector
   * when no other pair uses it. False when there was no such pair.
   */
  deletePairAndDocuments(id: number): boolean {
    return this.db.transaction(() => {
      const pair = this.stmt.getPair.get(id);
      if (pair === undefined) return false;
      this.stmt.deletePairOnlyDocuments.run(id);
      this.stmt.unlinkPairDocuments.run(id);
      this.stmt.deletePair.run(id);
      if (this.stmt.pairIdsOfConnector.all(pair.connector_id).length === 0) {
        this.stmt.deleteConnector.run(pair.connector_id);
      }
      return true;
    })();
  }

  getPair(id: number): PairRecord | undefined {
    const row = this.stmt.getPair.get(id);
    return row === undefined ? undefined : toPair(row);
  }

  findPair(connectorId: number, credentialId: number): PairRecord | undefined {
    const row = this.stmt.findPair.get(connectorId, credentialId);
    return row === undefined ? undefined : toPair(row);
  }

  listPairs(): PairRecord[] {
    return this.stmt.listPairs.all().map(toPair);
  }

  /** Number of documents attached to each pair id. */
  pairDocumentCounts(): Map<number, number> {
    const counts = new Map<number, number>();
    for (const row of this.stmt.pairDocumentCounts.all()) counts.set(row.cc_pair_id, row.documents);
    return counts;
  }

  // Documents

  /**
   * Inserts or updates a document and attaches it to a pair, in one transaction committed before
   * this returns. A new document, or one whose content changed, is (re)queued for indexing; a
   * re-post of the same content (only `doc_updated_at` may differ) keeps its indexing state.
   */
  upsertDocument(doc: DocumentWrite, pairId: number): UpsertResult {
    const result = this.upsertTx(doc, pairId, this.nowIso());
    if (result.requeued) this.queuedListener?.();
    return result;
  }

  /** Calls `listener` after each commit that queued documents for indexing (the indexer's wake-up). */
  onQueued(listener: () => void): void {
    this.queuedListener = listener;
  }

  /**
   * Group commit: the upserts requested during one turn of the event loop are written in one
   * transaction (in request order), and each promise resolves only after that transaction has
   * committed. Under concurrent load this writes each touched page once per batch instead of once
   * per document. If the batch fails, each upsert is retried in its own transaction so one bad
   * write cannot fail the others.
   */
  upsertDocumentGrouped(doc: DocumentWrite, pairId: number): Promise<UpsertResult> {
    return new Promise<UpsertResult>((resolve, reject) => {
      this.pending.push({ doc, pairId, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flushPending());
      }
    });
  }

  private flushPending(): void {
    this.flushScheduled = false;
    const items = this.pending;
    this.pending = [];
    if (items.length === 0) return;
    if (!this.db.open) {
      for (const item of items) item.reject(new Error('the emulator database is closed'));
      return;
    }
    const now = this.nowIso();
    let results: UpsertResult[];
    try {
      results = this.upsertBatchTx(items, now);
    } catch {
      let queued = false;
      for (const item of items) {
        try {
          const result = this.upsertTx(item.doc, item.pairId, now);
          queued ||= result.requeued;
          item.resolve(result);
        } catch (error) {
          item.reject(error);
        }
      }
      if (queued) this.queuedListener?.();
      return;
    }
    if (results.some((r) => r.requeued)) this.queuedListener?.();
    items.forEach((item, i) => {
      item.resolve(results[i]!);
    });
  }

  getDocument(id: string): DocumentRecord | undefined {
    const row = this.stmt.getDocument.get(id);
    return row === undefined ? undefined : toDocument(row);
  }

  deleteDocument(id: string): boolean {
    const found = this.stmt.findDocument.get(id);
    if (found === undefined) return false;
    this.stmt.deleteDocument.run(found.seq);
    return true;
  }

  /** Documents created or updated through the ingestion API, oldest first. */
  listIngestedDocuments(): DocumentListItem[] {
    return this.stmt.listIngested.all();
  }

  /** Documents attached to a pair, oldest first. */
  listPairDocuments(pairId: number): DocumentListItem[] {
    return this.stmt.listPairDocuments.all(pairId);
  }

  /** Most recent documents first. `limit` < 0 means no limit. */
  listDocumentSummaries(limit: number, offset = 0): DocumentSummary[] {
    return this.stmt.listSummaries.all(limit, offset).map(toSummary);
  }

  /** Most recent documents first, with their content. `limit` < 0 means no limit. */
  listDocuments(limit: number, offset = 0): DocumentRecord[] {
    return this.stmt.listFull.all(limit, offset).map(toDocument);
  }

  /** Moves up to `limit` queued documents to `indexed`; returns how many moved. */
  indexQueued(limit: number): number {
    return this.indexTx(limit, this.nowIso());
  }

  indexCounts(): IndexCounts {
    const total = this.stmt.countDocuments.get() ?? 0;
    const queued = this.stmt.countQueued.get() ?? 0;
    return { queued, indexed: total - queued, total };
  }

  // Uploaded files

  /** Stores uploaded files (in one transaction) with their first status; returns their records. */
  addUserFiles(files: UploadWrite[], status: string): UserFileRecord[] {
    const now = this.nowIso();
    return this.db.transaction(() =>
      files.map((file) => {
        const result = this.stmt.insertUserFile.run(
          randomUUID(),
          randomUUID(),
          file.name,
          file.file_type,
          file.data.byteLength,
          file.data,
          status,
          file.project_id,
          now,
        );
        return this.stmt.getUserFile.get(Number(result.lastInsertRowid))!;
      }),
    )();
  }

  hasFile(fileId: string): boolean {
    return this.stmt.hasFile.get(fileId) === 1;
  }

  listUserFiles(): UserFileRecord[] {
    return this.stmt.listUserFiles.all();
  }

  // Whole state

  /** Deletes everything and recreates the defaults (credential 0, connector 0, pair 1). */
  reset(): void {
    this.db.transaction(() => {
      this.db.exec(`DELETE FROM document_pairs; DELETE FROM documents; DELETE FROM user_files;
        DELETE FROM cc_pairs; DELETE FROM connectors; DELETE FROM credentials;`);
    })();
    this.seedDefaults();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
