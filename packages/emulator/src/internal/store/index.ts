// The emulator's state: one SQLite database (`sqlite.ts`) and one module per entity over it.
// Every write is committed before the HTTP answer is sent, so an acknowledged write survives the
// emulator's process being killed (only a power loss can lose the last commits in WAL mode with
// synchronous=NORMAL).
import { Accounts } from './accounts.js';
import { Acknowledgements } from './acknowledgements.js';
import { ApiKeys } from './api-keys.js';
import { Connectors } from './connectors.js';
import { Credentials } from './credentials.js';
import { DocumentSets } from './document-sets.js';
import { Documents } from './documents.js';
import { Files } from './files.js';
import { GroupPairs } from './group-pairs.js';
import { CURATORS_GROUP_ID, Groups } from './groups.js';
import { IndexAttempts } from './index-attempts.js';
import { IndexingErrors } from './indexing-errors.js';
import { Memberships } from './memberships.js';
import { Pairs } from './pairs.js';
import { migrate } from './schema.js';
import { SearchIndex } from './search-index.js';
import { SearchSettings } from './search-settings.js';
import { Sqlite } from './sqlite.js';

export interface StoreOptions {
  /** SQLite file path, or `:memory:`. */
  path: string;
  /** Clock, for tests. Defaults to `() => new Date()`. */
  now?: () => Date;
  /** The `backend_version` played (ingestion's hash gate, `already_existed`); undefined: newest. */
  version?: string | undefined;
}

/** The emulator's state, by entity: `store.connectors.get(id)`, `store.documents.upsert(…)`. */
export class Store {
  readonly path: string;
  readonly connectors: Connectors;
  readonly credentials: Credentials;
  readonly pairs: Pairs;
  readonly documents: Documents;
  readonly files: Files;
  readonly indexAttempts: IndexAttempts;
  readonly indexingErrors: IndexingErrors;
  readonly groups: Groups;
  readonly apiKeys: ApiKeys;
  readonly accounts: Accounts;
  readonly memberships: Memberships;
  readonly groupPairs: GroupPairs;
  readonly documentSets: DocumentSets;
  readonly searchSettings: SearchSettings;
  readonly searchIndex: SearchIndex;
  readonly acknowledgements: Acknowledgements;
  private readonly db: Sqlite;
  /** The ids of the PRESENT and FUTURE search settings (null: none), read again on a change. */
  private present: number | undefined;
  private future: number | null | undefined;
  private readonly now: () => string;

  constructor(options: StoreOptions) {
    this.path = options.path;
    const clock = options.now ?? (() => new Date());
    this.now = () => clock().toISOString();
    this.db = new Sqlite(options.path);
    try {
      migrate(this.db);
    } catch (error) {
      this.db.close(); // a refused database is not kept open
      throw error;
    }
    this.connectors = new Connectors(this.db, this.now);
    this.credentials = new Credentials(this.db, this.now);
    this.pairs = new Pairs(this.db, this.now);
    this.documents = new Documents(this.db, this.now, options.version);
    this.files = new Files(this.db, this.now);
    this.indexAttempts = new IndexAttempts(this.db, this.now);
    this.indexingErrors = new IndexingErrors(this.db, this.now);
    this.groups = new Groups(this.db);
    this.apiKeys = new ApiKeys(this.db, this.now);
    this.accounts = new Accounts(this.db);
    this.memberships = new Memberships(this.db);
    this.groupPairs = new GroupPairs(this.db);
    this.documentSets = new DocumentSets(this.db, this.now);
    this.searchSettings = new SearchSettings(this.db, this.now);
    this.searchIndex = new SearchIndex(this.db, () => this.presentSettingsId());
    this.acknowledgements = new Acknowledgements(this.db);
    this.createDefaults();
  }

  /** The id of the PRESENT search settings: the index searches and document checks read. */
  presentSettingsId(): number {
    this.present ??= this.searchSettings.present().id;
    return this.present;
  }

  /** The id of the FUTURE search settings of a model switch in progress, if any. */
  futureSettingsId(): number | undefined {
    if (this.future === undefined) this.future = this.searchSettings.future()?.id ?? null;
    return this.future ?? undefined;
  }

  /** Forgets the cached settings ids (a switch started or swapped). */
  settingsChanged(): void {
    this.present = undefined;
    this.future = undefined;
  }

  /** Runs `fn` in one transaction (changes of several entities that belong together). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** False once closed. */
  get open(): boolean {
    return this.db.open;
  }

  /**
   * Creates the default credential 0, connector 0 (`ingestion_api`), pair 1 and the seeded user
   * groups if missing.
   */
  private createDefaults(): void {
    const now = this.now();
    this.db.transaction(() => {
      this.credentials.createDefault(now);
      this.connectors.createDefault(now);
      this.pairs.createDefault(now);
      this.groups.createDefaults();
      this.searchSettings.createDefault(now);
    })();
    this.settingsChanged();
  }

  /**
   * Deletes everything (index attempts, errors, created API keys and accounts, groups made
   * through the API, sets, the index included), ids start over, and recreates the defaults
   * (credential 0, connector 0, pair 1, the seeded groups, the PRESENT search settings).
   */
  reset(): void {
    this.db.transaction(() => {
      this.db.exec(`DELETE FROM index_chunks; DELETE FROM index_documents; DELETE FROM chunk_text;
        DELETE FROM port_attempts; DELETE FROM search_settings;
        DELETE FROM document_set_pairs; DELETE FROM document_set_groups;
        DELETE FROM document_set_users; DELETE FROM document_sets;
        DELETE FROM user_group_pairs; DELETE FROM user_group_members; DELETE FROM accounts;
        DELETE FROM user_groups WHERE id > ${CURATORS_GROUP_ID};
        UPDATE user_groups SET is_up_to_date = 1, is_up_for_deletion = 0, sync_since = NULL,
          sync_stuck = 0;
        DELETE FROM document_pairs; DELETE FROM documents; DELETE FROM user_files;
        DELETE FROM index_attempt_errors; DELETE FROM index_attempts;
        DELETE FROM cc_pairs; DELETE FROM connectors; DELETE FROM credentials;
        DELETE FROM api_key_groups; DELETE FROM api_keys;`);
      // a reset is a new database: ids start over (AUTOINCREMENT keeps its counters here)
      this.db.exec('DELETE FROM sqlite_sequence');
    })();
    this.memberships.forget();
    this.createDefaults();
  }

  close(): void {
    this.db.close();
  }
}
