// The document ids this process has acknowledged, and when first (table `temp.acknowledgements`):
// what `stats().ingestion` counts as acknowledged and as re-sent after an acknowledgement. A
// temporary table, so it neither outlives the process nor grows the JS heap by a Map entry per
// document (the emulator's memory stays flat over millions of ingestions).
import type { NoParams, Sqlite } from './sqlite.js';

function prepare(db: Sqlite) {
  db.exec(
    'CREATE TEMP TABLE IF NOT EXISTS acknowledgements (id TEXT PRIMARY KEY, first_at REAL NOT NULL) WITHOUT ROWID',
  );
  return {
    firstAt: db.column<{ id: string }, number>(
      'SELECT first_at FROM temp.acknowledgements WHERE id = @id',
    ),
    insert: db.statement<{ id: string; at: number }>(
      'INSERT INTO temp.acknowledgements (id, first_at) VALUES (@id, @at)',
    ),
    count: db.column<NoParams, number>('SELECT count(*) FROM temp.acknowledgements'),
  };
}

export class Acknowledgements {
  private readonly stmt: ReturnType<typeof prepare>;

  constructor(db: Sqlite) {
    this.stmt = prepare(db);
  }

  /**
   * A 200 answer for `id` went out at `now` to a request that arrived at `arrivedAt`; true when
   * an earlier acknowledgement of the same id went out before it arrived (a needless re-send).
   */
  record(id: string, arrivedAt: number, now: number): boolean {
    const first = this.stmt.firstAt.get({ id });
    if (first === undefined) {
      this.stmt.insert.run({ id, at: now });
      return false;
    }
    return first < arrivedAt;
  }

  get count(): number {
    return this.stmt.count.get() ?? 0;
  }
}
