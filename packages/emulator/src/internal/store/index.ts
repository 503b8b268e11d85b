// The emulator's state: one SQLite database (`sqlite.ts`) and one module per entity over it.
// Every write is committed before the HTTP answer is sent, so an acknowledged write survives the
// emulator's process being killed (only a power loss can lose the last commits in WAL mode with
// synchronous=NORMAL).
import { ApiKeys } from './api-keys.js';
import { Connectors } from './connectors.js';
import { Credentials } from './credentials.js';
import { Documents } from './documents.js';
import { Files } from './files.js';
import { Groups } from './groups.js';
import { IndexAttempts } from './index-attempts.js';
import { IndexingErrors } from './indexing-errors.js';
import { Pairs } from './pairs.js';
import { migrate } from './schema.js';
import { Sqlite } from './sqlite.js';

export interface StoreOptions {
  /** SQLite file path, or `:memory:`. */
  path: string;
  /** Clock, for tests. Defaults to `() => new Date()`. */
  now?: () => Date;
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
  private readonly db: Sqlite;
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
    this.documents = new Documents(this.db, this.now);
    this.files = new Files(this.db, this.now);
    this.indexAttempts = new IndexAttempts(this.db, this.now);
    this.indexingErrors = new IndexingErrors(this.db, this.now);
    this.groups = new Groups(this.db);
    this.apiKeys = new ApiKeys(this.db, this.now);
    this.createDefaults();
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
    })();
  }

  /**
   * Deletes everything (index attempts, errors and created API keys included), ids start over,
   * and recreates the defaults (credential 0, connector 0, pair 1, the seeded groups).
   */
  reset(): void {
    this.db.transaction(() => {
      this.db.exec(`DELETE FROM document_pairs; DELETE FROM documents; DELETE FROM user_files;
        DELETE FROM index_attempt_errors; DELETE FROM index_attempts;
        DELETE FROM cc_pairs; DELETE FROM connectors; DELETE FROM credentials;
        DELETE FROM api_key_groups; DELETE FROM api_keys;`);
      // a reset is a new database: ids start over (AUTOINCREMENT keeps its counters here)
      this.db.exec('DELETE FROM sqlite_sequence');
    })();
    this.createDefaults();
  }

  close(): void {
    this.db.close();
  }
}
