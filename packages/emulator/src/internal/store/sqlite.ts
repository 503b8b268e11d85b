// The one module that talks to better-sqlite3: it opens the database (WAL journal,
// synchronous=NORMAL) and prepares statements. Its own small types (`Statement`, `RunResult`) keep
// better-sqlite3's types out of the emulator's published declarations.
import BetterSqlite3 from 'better-sqlite3';

/** What a write statement reports. */
export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** The named parameters of a statement that takes none. */
export type NoParams = undefined;

/** A statement's arguments: one object of named parameters (`@name` in its SQL), or none. */
type Args<P> = [P] extends [NoParams] ? [] : [params: P];

/** A prepared statement taking the named parameters `P` and reading rows of type `R`. */
export interface Statement<P, R> {
  run(...params: Args<P>): RunResult;
  get(...params: Args<P>): R | undefined;
  all(...params: Args<P>): R[];
}

/** One SQLite database of the emulator, every statement prepared once by its owner. */
export class Sqlite {
  private readonly db: BetterSqlite3.Database;

  constructor(readonly path: string) {
    this.db = new BetterSqlite3(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    // A bounded page cache (16 MiB) keeps the indexes' hot pages in memory as the store grows.
    this.db.pragma('cache_size = -16384');
  }

  get open(): boolean {
    return this.db.open;
  }

  /** A statement whose rows are objects of named columns. */
  statement<P = NoParams, R = never>(sql: string): Statement<P, R> {
    return this.db.prepare<unknown[], R>(sql);
  }

  /** A statement whose rows are the value of their one column. */
  column<P = NoParams, V = never>(sql: string): Statement<P, V> {
    return this.db.prepare<unknown[], V>(sql).pluck();
  }

  /** `fn` as one transaction (a savepoint when called inside another). */
  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T {
    return this.db.transaction(fn);
  }

  /** Runs SQL text without parameters (schema statements). */
  exec(sql: string): void {
    this.db.exec(sql);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
