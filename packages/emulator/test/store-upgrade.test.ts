// Databases written by earlier emulators are upgraded when opened: from schema version 1, pairs
// get a processing mode column and uploaded files a uuid record id; from version 2, connectors get
// an update time and pairs a status; from version 3, pairs get their indexing, pruning and
// deletion state, and index attempts, errors, groups and API keys get their tables. Other
// versions are refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { type Emulator, type EmulatorOptions, startEmulator } from '../src/index.js';
import { until } from './lifecycle-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'kis-emulator-upgrade-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

// The two tables that changed, as schema version 1 wrote them (its meta table: `database`).
const VERSION_1 = `
CREATE TABLE cc_pairs (
  id INTEGER PRIMARY KEY,
  connector_id INTEGER NOT NULL,
  credential_id INTEGER NOT NULL,
  name TEXT,
  access_type TEXT NOT NULL,
  groups TEXT NOT NULL,
  auto_sync_options TEXT,
  time_created TEXT NOT NULL,
  UNIQUE (connector_id, credential_id)
);
CREATE TABLE user_files (
  id INTEGER PRIMARY KEY,
  file_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  file_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  data BLOB NOT NULL,
  status TEXT NOT NULL,
  project_id INTEGER,
  created_at TEXT NOT NULL
);
INSERT INTO user_files (file_id, name, file_type, size, data, status, project_id, created_at)
  VALUES ('f-1', 'a.png', 'image/png', 1, x'01', 'COMPLETED', NULL, '2026-01-01T00:00:00Z');
`;

// The two tables that changed, as schema version 2 wrote them, with rows.
const VERSION_2 = `
CREATE TABLE connectors (
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
  time_created TEXT NOT NULL
);
INSERT INTO connectors VALUES
  (0, 'Ingestion API', 'ingestion_api', 'load_state', 'public', '{}', NULL, NULL, NULL, '[]',
   '2026-01-01T00:00:00Z'),
  (7, 'Old', 'web', 'load_state', 'public', '{}', NULL, NULL, NULL, '[]', '2026-01-02T00:00:00Z');
CREATE TABLE cc_pairs (
  id INTEGER PRIMARY KEY,
  connector_id INTEGER NOT NULL,
  credential_id INTEGER NOT NULL,
  name TEXT,
  access_type TEXT NOT NULL,
  groups TEXT NOT NULL,
  auto_sync_options TEXT,
  processing_mode TEXT,
  time_created TEXT NOT NULL,
  UNIQUE (connector_id, credential_id)
);
INSERT INTO cc_pairs VALUES
  (1, 0, 0, 'DefaultCCPair', 'public', '[]', NULL, NULL, '2026-01-01T00:00:00Z'),
  (2, 7, 0, 'Old', 'public', '[]', NULL, 'REGULAR', '2026-01-02T00:00:00Z');
`;

// The table that changed (cc_pairs), as schema version 3 wrote it, with a pair left DELETING by a
// stop; and the connectors its rows name.
const VERSION_3 = `
CREATE TABLE connectors (
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
INSERT INTO connectors VALUES
  (0, 'Ingestion API', 'ingestion_api', 'load_state', 'public', '{}', NULL, NULL, NULL, '[]',
   '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'),
  (7, 'Old', 'web', 'load_state', 'public', '{}', NULL, NULL, NULL, '[]',
   '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z'),
  (8, 'Doomed', 'web', 'load_state', 'public', '{}', NULL, NULL, NULL, '[]',
   '2026-01-03T00:00:00Z', '2026-01-03T00:00:00Z');
CREATE TABLE cc_pairs (
  id INTEGER PRIMARY KEY,
  connector_id INTEGER NOT NULL REFERENCES connectors(id),
  credential_id INTEGER NOT NULL,
  name TEXT,
  access_type TEXT NOT NULL,
  groups TEXT NOT NULL,
  auto_sync_options TEXT,
  processing_mode TEXT,
  status TEXT NOT NULL DEFAULT 'ACTIVE',
  time_created TEXT NOT NULL,
  UNIQUE (connector_id, credential_id)
);
INSERT INTO cc_pairs VALUES
  (1, 0, 0, 'DefaultCCPair', 'public', '[]', NULL, NULL, 'ACTIVE', '2026-01-01T00:00:00Z'),
  (2, 7, 0, 'Old', 'public', '[]', NULL, 'REGULAR', 'ACTIVE', '2026-01-02T00:00:00Z'),
  (3, 8, 0, 'Doomed', 'public', '[]', NULL, 'REGULAR', 'DELETING', '2026-01-03T00:00:00Z');
`;

// The tables version 5 changed, as version 4 wrote them: a pair's groups in a JSON column, groups
// without sync state, documents without index columns (one indexed, which has no chunks yet).
const VERSION_4 = `
CREATE TABLE user_groups (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE,
  grants TEXT NOT NULL);
INSERT INTO user_groups VALUES (1, 'Admin', '["admin"]'), (2, 'Basic', '["basic"]'),
  (3, 'Curators', '["manage:connectors"]');
CREATE TABLE cc_pairs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  connector_id INTEGER NOT NULL,
  credential_id INTEGER NOT NULL,
  name TEXT,
  access_type TEXT NOT NULL,
  groups TEXT NOT NULL,
  auto_sync_options TEXT,
  processing_mode TEXT,
  status TEXT NOT NULL DEFAULT 'ACTIVE',
  in_repeated_error_state INTEGER NOT NULL DEFAULT 0,
  indexing_trigger TEXT,
  last_pruned TEXT,
  pruning_since TEXT,
  deletion_status TEXT,
  deletion_since TEXT,
  time_created TEXT NOT NULL,
  UNIQUE (connector_id, credential_id)
);
INSERT INTO cc_pairs (id, connector_id, credential_id, name, access_type, groups, status,
  time_created)
VALUES (1, 0, 0, 'DefaultCCPair', 'public', '[]', 'ACTIVE', '2026-01-01T00:00:00Z'),
  (2, 0, 5, 'Private', 'private', '[3]', 'ACTIVE', '2026-01-02T00:00:00Z');
CREATE TABLE documents (
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
INSERT INTO documents VALUES (1, 'old-doc', 'Old', NULL, 'file', NULL,
  '[{"text":"kept words"}]', '{}', NULL, NULL, '2026-01-02T00:00:00Z', NULL, '{}', 1, 'h',
  'indexed', '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z',
  '2026-01-02T00:00:00Z');
CREATE TABLE document_pairs (cc_pair_id INTEGER NOT NULL, document_seq INTEGER NOT NULL,
  PRIMARY KEY (cc_pair_id, document_seq)) WITHOUT ROWID;
INSERT INTO document_pairs VALUES (1, 1);
`;

/** The schema version a database file holds. */
function versionOf(path: string): unknown {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get();
  } finally {
    db.close();
  }
}

/** A database file `name` at schema `version` (its meta table), then holding `tables`. */
function database(name: string, version: string, tables = ''): string {
  const path = join(dir, name);
  const db = new Database(path);
  db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta (key, value) VALUES ('schema_version', '${version}');
${tables}`);
  db.close();
  return path;
}

/** Opens the database at `path` with an emulator, checks it, closes it: the file is then at 5. */
async function upgrade(
  path: string,
  check: (emulator: Emulator) => Promise<void> | void,
  options: EmulatorOptions = {},
): Promise<void> {
  const emulator = await startEmulator({ dbPath: path, ...options });
  try {
    await check(emulator);
  } finally {
    await emulator.close();
  }
  expect(versionOf(path)).toBe('5');
}

describe('database schema', () => {
  it('upgrades a version-1 database on open', async () => {
    await upgrade(database('v1.db', '1', VERSION_1), (emulator) => {
      const [file] = emulator.state.files();
      expect(file).toMatchObject({ file_id: 'f-1', name: 'a.png' });
      expect(file?.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(emulator.state.pairs()[0]).toMatchObject({ id: 1, processing_mode: null });
    });
  });

  it('upgrades a version-2 database on open: connectors get time_updated, pairs status ACTIVE', async () => {
    await upgrade(database('v2.db', '2', VERSION_2), (emulator) => {
      expect(emulator.state.connectors({ all: true })).toMatchObject([
        { id: 0, time_created: '2026-01-01T00:00:00Z', time_updated: '2026-01-01T00:00:00Z' },
        { id: 7, name: 'Old', time_updated: '2026-01-02T00:00:00Z' },
      ]);
      expect(emulator.state.pairs().map((p) => [p.id, p.status])).toEqual([
        [1, 'ACTIVE'],
        [2, 'ACTIVE'],
      ]);
    });
  });

  it('upgrades a version-3 database on open: pairs get their lifecycle state, then live it', async () => {
    await upgrade(
      database('v3.db', '3', VERSION_3),
      async (emulator) => {
        expect(emulator.state.pairs()[1]).toMatchObject({
          id: 2,
          status: 'ACTIVE',
          in_repeated_error_state: false,
          indexing_trigger: null,
          last_pruned: null,
          pruning_since: null,
        });
        expect(emulator.state.groups().map((g) => g.name)).toEqual(['Admin', 'Basic', 'Curators']);
        expect(emulator.state.apiKeys()).toEqual([]);
        // the pair left DELETING is deleted, with its connector; the old pair gets its first attempt
        await until(() => !emulator.state.pairs().some((p) => p.id === 3));
        expect(emulator.state.connectors({ all: true }).map((c) => c.id)).toEqual([0, 7]);
        await until(() => emulator.state.indexAttempts(2)[0]?.status === 'success');
      },
      { tasks: { startDelayMs: 0, durationMs: 0 }, deletionDelayMs: 0 },
    );
  });

  it("upgrades a version-4 database on open: pairs' groups become links, documents are indexed anew", async () => {
    await upgrade(database('v4.db', '4', VERSION_4), async (emulator) => {
      expect(emulator.state.pairs().map((p) => [p.id, p.groups])).toEqual([
        [1, []],
        [2, [3]],
      ]);
      expect(emulator.state.groups().map((g) => [g.name, g.is_default])).toEqual([
        ['Admin', true],
        ['Basic', true],
        ['Curators', false],
      ]);
      // the old document was queued again: the indexer writes its chunks into the new index
      await emulator.indexer.idle();
      expect(emulator.state.documentAccess('old-doc')).toMatchObject({
        chunks: 1,
        readers: ['PUBLIC'],
      });
    });
  });

  it('refuses a database of another version, naming both', async () => {
    const path = database('v9.db', '9');
    await expect(startEmulator({ dbPath: path })).rejects.toThrow(/schema version 9.*uses 5/);
  });
});
