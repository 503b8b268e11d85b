// The store's tables, and the upgrade of databases written by earlier emulators (their schema
// version is kept in `meta`). A database of an unknown version is refused.
import { randomUUID } from 'node:crypto';
import { DEFAULT_PAIR_STATUS } from './pairs.js';
import type { NoParams, Sqlite } from './sqlite.js';

/**
 * 2: uploaded files have a uuid record id; pairs keep their processing mode.
 * 3: connectors have an update time; pairs have a status.
 */
export const SCHEMA_VERSION = 3;

const TABLES = `
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
  status TEXT NOT NULL DEFAULT '${DEFAULT_PAIR_STATUS}',
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

/** Creates the tables of a new database, upgrades a version-1 or version-2 one, refuses others. */
export function migrate(db: Sqlite): void {
  db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const version = db
    .column<{ key: string }, string>('SELECT value FROM meta WHERE key = @key')
    .get({ key: 'schema_version' });
  if (version === '1') {
    upgradeFromVersion1(db);
    upgradeFromVersion2(db);
  } else if (version === '2') {
    upgradeFromVersion2(db);
  } else if (version !== undefined && version !== String(SCHEMA_VERSION)) {
    throw new Error(
      `database ${db.path} has schema version ${version}, this emulator uses ${SCHEMA_VERSION}; start with a new --db file`,
    );
  }
  db.statement<{ key: string; value: string }>(
    'INSERT OR REPLACE INTO meta (key, value) VALUES (@key, @value)',
  ).run({ key: 'schema_version', value: String(SCHEMA_VERSION) });
  db.exec(TABLES);
}

/** Version 2: pairs get `processing_mode`, uploaded files a uuid `uid`. */
function upgradeFromVersion1(db: Sqlite): void {
  db.transaction(() => {
    db.exec(`ALTER TABLE cc_pairs ADD COLUMN processing_mode TEXT;
      ALTER TABLE user_files ADD COLUMN uid TEXT;`);
    const ids = db.column<NoParams, number>('SELECT id FROM user_files').all();
    const setUid = db.statement<{ uid: string; id: number }>(
      'UPDATE user_files SET uid = @uid WHERE id = @id',
    );
    for (const id of ids) setUid.run({ uid: randomUUID(), id });
    db.exec('CREATE UNIQUE INDEX IF NOT EXISTS user_files_uid ON user_files(uid)');
  })();
}

/** Version 3: connectors get `time_updated` (their creation time), pairs `status` (ACTIVE). */
function upgradeFromVersion2(db: Sqlite): void {
  const columns = (table: string) =>
    db.column<NoParams, string>(`SELECT name FROM pragma_table_info('${table}')`).all();
  db.transaction(() => {
    const connectorColumns = columns('connectors');
    if (connectorColumns.length > 0 && !connectorColumns.includes('time_updated')) {
      db.exec(`ALTER TABLE connectors ADD COLUMN time_updated TEXT;
        UPDATE connectors SET time_updated = time_created;`);
    }
    const pairColumns = columns('cc_pairs');
    if (pairColumns.length > 0 && !pairColumns.includes('status')) {
      db.exec(
        `ALTER TABLE cc_pairs ADD COLUMN status TEXT NOT NULL DEFAULT '${DEFAULT_PAIR_STATUS}'`,
      );
    }
  })();
}
