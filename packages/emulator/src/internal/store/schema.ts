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
 * 5: the search index (chunks in FTS5, readers and set names per document and index), search
 *    settings and their ports, accounts and group memberships, group and set links to pairs,
 *    document sets; documents keep hidden, boost, embeddings and their chunk count; credentials
 *    their creator.
 */
export const SCHEMA_VERSION = 5;

/** The columns version 4 added to `cc_pairs`, with their types. */
const PAIR_LIFECYCLE_COLUMNS = `in_repeated_error_state INTEGER NOT NULL DEFAULT 0,
  indexing_trigger TEXT,
  last_pruned TEXT,
  pruning_since TEXT,
  deletion_status TEXT,
  deletion_since TEXT`;

/** The columns version 5 added to `documents`. */
const DOCUMENT_INDEX_COLUMNS = `hidden INTEGER NOT NULL DEFAULT 0,
  boost INTEGER NOT NULL DEFAULT 0,
  embeddings INTEGER NOT NULL DEFAULT 0,
  chunks INTEGER NOT NULL DEFAULT 0`;

/** The columns version 5 added to `user_groups` (the seeded groups are default ones). */
const GROUP_SYNC_COLUMNS = `is_default INTEGER NOT NULL DEFAULT 0,
  is_up_to_date INTEGER NOT NULL DEFAULT 1,
  is_up_for_deletion INTEGER NOT NULL DEFAULT 0,
  sync_since TEXT,
  sync_stuck INTEGER NOT NULL DEFAULT 0`;

/**
 * Version 5's tables. The index: one row per document and index in `index_documents` (its
 * readers and set names as last stamped), one per chunk in `index_chunks`, whose id is the rowid
 * of its text in the FTS5 table `chunk_text`; deleting a document deletes its chunks (foreign
 * keys) and their text (trigger). Links of groups and sets to pairs keep `is_current` until the
 * sync drops stale ones.
 */
const TRUST_TABLES = `
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY,
  name TEXT,
  role TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS user_group_members (
  group_id INTEGER NOT NULL REFERENCES user_groups(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  is_manager INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (group_id, user_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS user_group_members_user ON user_group_members(user_id);
CREATE TABLE IF NOT EXISTS user_group_pairs (
  group_id INTEGER NOT NULL,
  cc_pair_id INTEGER NOT NULL REFERENCES cc_pairs(id) ON DELETE CASCADE,
  is_current INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (group_id, cc_pair_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS user_group_pairs_pair ON user_group_pairs(cc_pair_id);
CREATE TABLE IF NOT EXISTS document_sets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT,
  is_public INTEGER NOT NULL,
  is_up_to_date INTEGER NOT NULL DEFAULT 0,
  is_deleting INTEGER NOT NULL DEFAULT 0,
  creator_id TEXT,
  sync_since TEXT,
  sync_stuck INTEGER NOT NULL DEFAULT 0,
  time_created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS document_set_pairs (
  set_id INTEGER NOT NULL REFERENCES document_sets(id) ON DELETE CASCADE,
  cc_pair_id INTEGER NOT NULL REFERENCES cc_pairs(id) ON DELETE CASCADE,
  is_current INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (set_id, cc_pair_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS document_set_pairs_pair ON document_set_pairs(cc_pair_id);
CREATE TABLE IF NOT EXISTS document_set_groups (
  set_id INTEGER NOT NULL REFERENCES document_sets(id) ON DELETE CASCADE,
  group_id INTEGER NOT NULL,
  PRIMARY KEY (set_id, group_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS document_set_users (
  set_id INTEGER NOT NULL REFERENCES document_sets(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  PRIMARY KEY (set_id, user_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS search_settings (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  status TEXT NOT NULL CHECK (status IN ('PRESENT', 'FUTURE', 'PAST')),
  model_name TEXT NOT NULL,
  model_dim INTEGER NOT NULL,
  index_name TEXT NOT NULL,
  switchover_type TEXT NOT NULL,
  use_port_flow INTEGER NOT NULL,
  time_created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS port_attempts (
  settings_id INTEGER NOT NULL REFERENCES search_settings(id) ON DELETE CASCADE,
  cc_pair_id INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('waiting', 'in_progress', 'completed', 'failed', 'paused')),
  time_started TEXT,
  error_msg TEXT,
  PRIMARY KEY (settings_id, cc_pair_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS index_documents (
  settings_id INTEGER NOT NULL,
  document_seq INTEGER NOT NULL REFERENCES documents(seq) ON DELETE CASCADE,
  readers TEXT NOT NULL,
  set_names TEXT NOT NULL,
  chunk_count INTEGER NOT NULL,
  PRIMARY KEY (settings_id, document_seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS index_documents_document ON index_documents(document_seq);
CREATE TABLE IF NOT EXISTS index_chunks (
  id INTEGER PRIMARY KEY,
  settings_id INTEGER NOT NULL,
  document_seq INTEGER NOT NULL REFERENCES documents(seq) ON DELETE CASCADE,
  chunk_ind INTEGER NOT NULL,
  link TEXT,
  UNIQUE (settings_id, document_seq, chunk_ind)
);
CREATE INDEX IF NOT EXISTS index_chunks_document ON index_chunks(document_seq);
CREATE VIRTUAL TABLE IF NOT EXISTS chunk_text USING fts5(content);
CREATE TRIGGER IF NOT EXISTS index_chunks_text AFTER DELETE ON index_chunks
BEGIN DELETE FROM chunk_text WHERE rowid = old.id; END;
`;

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
  creator_id TEXT,
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
  grants TEXT NOT NULL,
  ${GROUP_SYNC_COLUMNS}
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
  ${DOCUMENT_INDEX_COLUMNS},
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
${TRUST_TABLES}
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
  '4': upgradeFromVersion4,
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

/** Adds `columns` (a column list as in `CREATE TABLE`) to `table` when it lacks the first. */
function addColumns(db: Sqlite, table: string, columns: string): void {
  const existing = columnsOf(db, table);
  if (existing.length === 0) return;
  for (const column of columns.split(',')) {
    const name = column.trim().split(/\s/)[0] ?? '';
    if (!existing.includes(name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column.trim()}`);
  }
}

/**
 * Version 5: documents, groups and credentials get their new columns (the seeded groups become
 * default ones); a pair's groups move from a JSON column to links; every document is queued
 * again, so the indexer writes its chunks into the new index.
 */
function upgradeFromVersion4(db: Sqlite): void {
  db.transaction(() => {
    addColumns(db, 'documents', DOCUMENT_INDEX_COLUMNS);
    addColumns(db, 'user_groups', GROUP_SYNC_COLUMNS);
    addColumns(db, 'credentials', 'creator_id TEXT');
    db.exec(TRUST_TABLES);
    if (columnsOf(db, 'user_groups').length > 0) {
      db.exec("UPDATE user_groups SET is_default = 1 WHERE name IN ('Admin', 'Basic')");
    }
    if (columnsOf(db, 'cc_pairs').includes('groups')) {
      db.exec(`INSERT OR IGNORE INTO user_group_pairs (group_id, cc_pair_id, is_current)
          SELECT g.value, p.id, 1 FROM cc_pairs p, json_each(p.groups) g;
        ALTER TABLE cc_pairs DROP COLUMN groups;`);
    }
    if (columnsOf(db, 'documents').length > 0) {
      db.exec("UPDATE documents SET index_state = 'queued', indexed_at = NULL");
    }
  })();
}
