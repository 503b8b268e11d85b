// Index attempts (table `index_attempts`): the indexing runs of a pair, from `not_started` to an
// end state. Which states count as running or successful, and which attempt is the newest, are
// the rule book's; the statements read them from there.
import {
  type IndexingStatus,
  NEWEST_ATTEMPT_FIRST,
  RUNNING_ATTEMPT_STATUSES,
  SUCCESSFUL_ATTEMPT_STATUSES,
} from '@kis/rules';
import type { NoParams, Sqlite } from './sqlite.js';

export interface IndexAttemptRecord {
  id: number;
  cc_pair_id: number;
  status: IndexingStatus;
  from_beginning: boolean;
  new_docs_indexed: number;
  total_docs_indexed: number;
  docs_removed_from_index: number;
  error_msg: string | null;
  error_count: number;
  full_exception_trace: string | null;
  /** A pause or a deletion asked it to stop: it ends `canceled` at the worker's next round. */
  cancel_requested: boolean;
  time_created: string;
  time_started: string | null;
  time_updated: string;
  poll_range_start: string | null;
  poll_range_end: string | null;
}

/** How an attempt ended. */
export interface AttemptEnd {
  status: IndexingStatus;
  new_docs_indexed: number;
  total_docs_indexed: number;
  error_msg: string | null;
  error_count: number;
  full_exception_trace: string | null;
}

/** What the listings and the pair's detail read of its attempts. */
export interface AttemptSummary {
  count: number;
  /** The newest attempt (by creation), finished or not. */
  newest: IndexAttemptRecord | undefined;
  /** The status of the newest attempt that ended. */
  newestFinishedStatus: IndexingStatus | null;
  /** When the newest successful attempt started. */
  lastSuccess: string | null;
}

interface AttemptRow extends Omit<IndexAttemptRecord, 'from_beginning' | 'cancel_requested'> {
  from_beginning: number;
  cancel_requested: number;
}

type PairId = { cc_pair_id: number };
type Id = { id: number };

// The states the statements set, typed by the rule book's `IndexingStatus`.
const WAITING: IndexingStatus = 'not_started';
const IN_PROGRESS: IndexingStatus = 'in_progress';
const CANCELED: IndexingStatus = 'canceled';
type Status<K extends string> = { [P in K]: IndexingStatus };

/** Newest first: every statement that picks or lists a pair's newest attempts orders by this. */
const NEWEST_FIRST = `ORDER BY ${NEWEST_ATTEMPT_FIRST.map((column) => `${column} DESC`).join(', ')}`;
const RUNNING = `status IN (SELECT value FROM json_each('${JSON.stringify(RUNNING_ATTEMPT_STATUSES)}'))`;
const SUCCESSFUL = `status IN (SELECT value FROM json_each('${JSON.stringify(SUCCESSFUL_ATTEMPT_STATUSES)}'))`;

function toAttempt(row: AttemptRow): IndexAttemptRecord {
  return {
    ...row,
    from_beginning: row.from_beginning === 1,
    cancel_requested: row.cancel_requested === 1,
  };
}

function prepare(db: Sqlite) {
  return {
    insert: db.statement<PairId & Status<'waiting'> & { from_beginning: number; now: string }>(
      `INSERT INTO index_attempts (cc_pair_id, status, from_beginning, time_created, time_updated)
       VALUES (@cc_pair_id, @waiting, @from_beginning, @now, @now)`,
    ),
    get: db.statement<Id, AttemptRow>('SELECT * FROM index_attempts WHERE id = @id'),
    page: db.statement<PairId & { limit: number; offset: number }, AttemptRow>(
      `SELECT * FROM index_attempts WHERE cc_pair_id = @cc_pair_id ${NEWEST_FIRST}
       LIMIT @limit OFFSET @offset`,
    ),
    count: db.column<PairId, number>(
      'SELECT count(*) FROM index_attempts WHERE cc_pair_id = @cc_pair_id',
    ),
    newestStatuses: db.column<PairId & { limit: number }, IndexingStatus>(
      `SELECT status FROM index_attempts WHERE cc_pair_id = @cc_pair_id ${NEWEST_FIRST}
       LIMIT @limit`,
    ),
    newestFinishedStatus: db.column<PairId, IndexingStatus>(
      `SELECT status FROM index_attempts WHERE cc_pair_id = @cc_pair_id AND NOT ${RUNNING}
       ${NEWEST_FIRST} LIMIT 1`,
    ),
    lastSuccess: db.statement<PairId, Pick<AttemptRow, 'time_started' | 'poll_range_end'>>(
      `SELECT time_started, poll_range_end FROM index_attempts
       WHERE cc_pair_id = @cc_pair_id AND ${SUCCESSFUL} ${NEWEST_FIRST} LIMIT 1`,
    ),
    running: db.statement<NoParams, AttemptRow>(
      `SELECT * FROM index_attempts WHERE ${RUNNING} ORDER BY id`,
    ),
    runningOfPair: db.statement<PairId, AttemptRow>(
      `SELECT * FROM index_attempts WHERE cc_pair_id = @cc_pair_id AND ${RUNNING} ORDER BY id`,
    ),
    start: db.statement<
      Id & Status<'waiting' | 'in_progress'> & { now: string; from: string | null; to: string }
    >(
      `UPDATE index_attempts SET status = @in_progress, time_started = @now, time_updated = @now,
         poll_range_start = @from, poll_range_end = @to
       WHERE id = @id AND status = @waiting`,
    ),
    end: db.statement<Id & AttemptEnd & { now: string }>(
      `UPDATE index_attempts SET status = @status, new_docs_indexed = @new_docs_indexed,
         total_docs_indexed = @total_docs_indexed, error_msg = @error_msg,
         error_count = @error_count, full_exception_trace = @full_exception_trace,
         time_updated = @now
       WHERE id = @id`,
    ),
    requestCancel: db.statement<PairId & { now: string }>(
      `UPDATE index_attempts SET cancel_requested = 1, time_updated = @now
       WHERE cc_pair_id = @cc_pair_id AND ${RUNNING} AND cancel_requested = 0`,
    ),
    cancelWaiting: db.statement<
      PairId & Status<'waiting' | 'canceled'> & { now: string; reason: string | null }
    >(
      `UPDATE index_attempts SET status = @canceled, error_msg = @reason, time_updated = @now
       WHERE cc_pair_id = @cc_pair_id AND status = @waiting`,
    ),
  };
}

/** The index attempts of every pair. */
export class IndexAttempts {
  private readonly stmt: ReturnType<typeof prepare>;

  constructor(
    db: Sqlite,
    private readonly now: () => string,
  ) {
    this.stmt = prepare(db);
  }

  /** A new attempt of the pair, `not_started`. */
  create(pairId: number, fromBeginning: boolean): IndexAttemptRecord {
    const result = this.stmt.insert.run({
      cc_pair_id: pairId,
      from_beginning: fromBeginning ? 1 : 0,
      waiting: WAITING,
      now: this.now(),
    });
    return this.get(Number(result.lastInsertRowid))!;
  }

  get(id: number): IndexAttemptRecord | undefined {
    const row = this.stmt.get.get({ id });
    return row === undefined ? undefined : toAttempt(row);
  }

  /** One page of the pair's attempts, newest first. */
  pageOfPair(pairId: number, pageNum: number, pageSize: number): IndexAttemptRecord[] {
    const page = { cc_pair_id: pairId, limit: pageSize, offset: pageNum * pageSize };
    return this.stmt.page.all(page).map(toAttempt);
  }

  countOfPair(pairId: number): number {
    return this.stmt.count.get({ cc_pair_id: pairId }) ?? 0;
  }

  /** The pair's newest attempt (by creation), finished or not. */
  newest(pairId: number): IndexAttemptRecord | undefined {
    return this.pageOfPair(pairId, 0, 1)[0];
  }

  /** The statuses of the pair's newest attempts, newest first. */
  newestStatuses(pairId: number, limit: number): IndexingStatus[] {
    return this.stmt.newestStatuses.all({ cc_pair_id: pairId, limit });
  }

  summaryOfPair(pairId: number): AttemptSummary {
    return {
      count: this.countOfPair(pairId),
      newest: this.newest(pairId),
      newestFinishedStatus: this.stmt.newestFinishedStatus.get({ cc_pair_id: pairId }) ?? null,
      lastSuccess: this.stmt.lastSuccess.get({ cc_pair_id: pairId })?.time_started ?? null,
    };
  }

  /** Where the pair's newest successful attempt stopped reading its source, if any succeeded. */
  lastSuccessPollEnd(pairId: number): string | null {
    return this.stmt.lastSuccess.get({ cc_pair_id: pairId })?.poll_range_end ?? null;
  }

  /** Every waiting or running attempt, oldest first. */
  running(): IndexAttemptRecord[] {
    return this.stmt.running.all().map(toAttempt);
  }

  runningOfPair(pairId: number): IndexAttemptRecord[] {
    return this.stmt.runningOfPair.all({ cc_pair_id: pairId }).map(toAttempt);
  }

  /** Moves a waiting attempt to `in_progress`, reading the source from `from` to `to`. */
  start(id: number, from: string | null, to: string): boolean {
    const states = { waiting: WAITING, in_progress: IN_PROGRESS };
    return this.stmt.start.run({ id, ...states, now: this.now(), from, to }).changes > 0;
  }

  end(id: number, end: AttemptEnd): void {
    this.stmt.end.run({ id, ...end, now: this.now() });
  }

  /** Asks the pair's waiting and running attempts to stop; the worker ends them `canceled`. */
  requestCancel(pairId: number): void {
    this.stmt.requestCancel.run({ cc_pair_id: pairId, now: this.now() });
  }

  /** Ends the pair's waiting (not started) attempts `canceled` at once. */
  cancelWaiting(pairId: number, reason: string | null): void {
    const states = { waiting: WAITING, canceled: CANCELED };
    this.stmt.cancelWaiting.run({ cc_pair_id: pairId, ...states, now: this.now(), reason });
  }
}
