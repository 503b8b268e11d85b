// The store's tables, and the upgrade of databases written by earlier emulators (their schema
// version is kept in `meta`). A database of an unknown version is refused.
import { randomUUID } from 'node:crypto';
import { DEFAULT_PAIR_STATUS } from './pairs.js';
import type { NoParams, Sqlite } from './sqlite.js';

/**
 * 2: uploaded files have a uuid record id; pairs keep their processing mode.
 * 3: connectors have an update time; pairs have a status.
 * 4: index attempts and their errors, user groups and created API keys; pairs keep their
 *    indexing, pruning and deletion state.
 */
export const SCHEMA_VERSION = 4;

/** The columns version 4 added to `cc_pairs`, with their types. */
const PAIR_LIFECYCLE_COLUMNS = `in_repeated_error_state INTEGER NOT NULL DEFAULT 0,
  indexing_trigger TEXT,
  last_pruned TEXT,
  pruning_since TEXT,
  deletion_status TEXT,
  deletion_since TEXT`;

// Ids are never reused after a deletion (AUTOINCREMENT), as on the servers' Postgres: a journal
// kept for a deleted pair must not apply to a new one.
const TABLES = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS credentials (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  connector_id INTEGER NOT NULL REFERENCES connectors(id),
  credential_id INTEGER NOT NULL REFERENCES credentials(id),
  name TEXT,
  access_type TEXT NOT NULL,
  groups TEXT NOT NULL,
  auto_sync_options TEXT,
  processing_mode TEXT,
  status TEXT NOT NULL DEFAULT '${DEFAULT_PAIR_STATUS}',
  ${PAIR_LIFECYCLE_COLUMNS},
  time_created TEXT NOT NULL,
  UNIQUE (connector_id, credential_id)
);
CREATE TABLE IF NOT EXISTS index_attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  cc_pair_id INTEGER NOT NULL REFERENCES cc_pairs(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  from_beginning INTEGER NOT NULL,
  new_docs_indexed INTEGER NOT NULL DEFAULT 0,
  total_docs_indexed INTEGER NOT NULL DEFAULT 0,
  docs_removed_from_index INTEGER NOT NULL DEFAULT 0,
  error_msg TEXT,
  error_count INTEGER NOT NULL DEFAULT 0,
  full_exception_trace TEXT,
  cancel_requested INTEGER NOT NULL DEFAULT 0,
  time_created TEXT NOT NULL,
  time_started TEXT,
  time_updated TEXT NOT NULL,
  poll_range_start TEXT,
  poll_range_end TEXT
);
CREATE INDEX IF NOT EXISTS index_attempts_pair ON index_attempts(cc_pair_id);
CREATE TABLE IF NOT EXISTS index_attempt_errors (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  index_attempt_id INTEGER NOT NULL REFERENCES index_attempts(id) ON DELETE CASCADE,
  cc_pair_id INTEGER NOT NULL REFERENCES cc_pairs(id) ON DELETE CASCADE,
  document_id TEXT,
  document_link TEXT,
  entity_id TEXT,
  failed_time_range_start TEXT,
  failed_time_range_end TEXT,
  failure_message TEXT NOT NULL,
  is_resolved INTEGER NOT NULL DEFAULT 0,
  error_type TEXT,
  time_created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS index_attempt_errors_pair ON index_attempt_errors(cc_pair_id);
CREATE INDEX IF NOT EXISTS index_attempt_errors_attempt
  ON index_attempt_errors(index_attempt_id);
CREATE TABLE IF NOT EXISTS user_groups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  grants TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  digest TEXT NOT NULL UNIQUE,
  name TEXT,
  display TEXT NOT NULL,
  role TEXT NOT NULL,
  user_id TEXT NOT NULL,
  time_created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_key_groups (
  api_key_id INTEGER NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  group_id INTEGER NOT NULL REFERENCES user_groups(id),
  PRIMARY KEY (api_key_id, group_id)
) WITHOUT ROWID;
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
  id INTEGER PRIMARY KEY AUTOINCREMENT,
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

/** The upgrades from each earlier version to the next, in order. */
const UPGRADES: Readonly<Record<string, (db: Sqlite) => void>> = {
  '1': upgradeFromVersion1,
  '2': upgradeFromVersion2,
  '3': upgradeFromVersion3,
};

/** Creates the tables of a new database, upgrades one of an earlier version, refuses others. */
export function migrate(db: Sqlite): void {
  db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const version = db
    .column<{ key: string }, string>('SELECT value FROM meta WHERE key = @key')
    .get({ key: 'schema_version' });
  if (version !== undefined && Object.hasOwn(UPGRADES, version)) {
    for (let v = Number(version); v < SCHEMA_VERSION; v++) UPGRADES[String(v)]!(db);
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

function columnsOf(db: Sqlite, table: string): string[] {
  return db.column<NoParams, string>(`SELECT name FROM pragma_table_info('${table}')`).all();
}

/** Version 3: connectors get `time_updated` (their creation time), pairs `status` (ACTIVE). */
function upgradeFromVersion2(db: Sqlite): void {
  const columns = (table: string) => columnsOf(db, table);
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

/**
 * Version 4: pairs get their indexing, pruning and deletion state (none yet: not in repeated
 * error, never pruned, no deletion); the new tables are created empty with the others.
 */
function upgradeFromVersion3(db: Sqlite): void {
  const pairColumns = columnsOf(db, 'cc_pairs');
  if (pairColumns.length === 0 || pairColumns.includes('in_repeated_error_state')) return;
  db.transaction(() => {
    for (const column of PAIR_LIFECYCLE_COLUMNS.split(',')) {
      db.exec(`ALTER TABLE cc_pairs ADD COLUMN ${column.trim()}`);
    }
  })();
}
