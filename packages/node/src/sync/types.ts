/**
 * `sync`: make a pair's documents equal to a source of documents with ids (a folder, an
 * export), deletions included. A plan first (create, update, unchanged, delete), from the pair's
 * listing, the journal's content hashes and which ids this source owns; then a run that sends
 * the creates and updates through `ingestMany` and deletes what the source no longer has.
 */

import type {
  IngestItem,
  IngestionDocumentInput,
  IngestJournal,
  IngestManyOptions,
  IngestResult,
  IngestSummary,
  KisError,
} from '@kis/client';

/** A document of the source: a document with its `id`, or an item whose `id` is known before loading. */
export type SyncItem = (IngestItem & { id?: string | undefined }) | IngestionDocumentInput;

/**
 * A source that may read only what changed since its last run (an SQL source past its cursor, a
 * git source from its last commit): after it was read, `presentIds()` gives every id it holds now
 * (undefined when it read everything), so that `sync` deletes only what it no longer has, not
 * what it did not read.
 */
export interface IncrementalSource extends AsyncIterable<SyncItem> {
  presentIds(): AsyncIterable<string> | Iterable<string> | undefined;
}

/** A journal `sync` plans from: any `IngestJournal`, with `refresh` when it can re-read itself. */
export type SyncJournal = IngestJournal & { refresh?(): void | Promise<void> };

export interface SyncOptions
  extends Omit<IngestManyOptions, 'ccPairId' | 'journal' | 'dryRun' | 'onResult'> {
  /** The pair to keep equal to the source. */
  ccPairId: number;
  /**
   * Which of the pair's documents this source owns (only those are ever deleted): ids starting
   * with one of these prefixes (compared in stored form: `docs/` owns `docs%2Fa.md`), or the
   * stored ids a predicate accepts.
   */
  owns: readonly string[] | ((documentId: string) => boolean);
  /** Delete owned documents the source no longer has (default false: they are only reported). */
  prune?: boolean | undefined;
  /**
   * The most owned documents a prune may delete: a count, or a share such as `'50%'` (default):
   * an emptied or unmounted folder must not wipe a pair. Over it, the plan is refused.
   */
  maxDelete?: number | `${number}%` | undefined;
  /** Carry out a prune over `maxDelete` anyway. */
  force?: boolean | undefined;
  /**
   * Content hashes of what the server acknowledged: documents proven unchanged are not sent. Its
   * `refresh()`, when it has one (`openJournal`'s), is called before planning, so that what an
   * earlier run in this process recorded counts.
   */
  journal?: SyncJournal | undefined;
  /** How many documents the plan reads and hashes at once (default 8). */
  planConcurrency?: number | undefined;
}

export type SyncAction = 'create' | 'update' | 'unchanged' | 'delete';

export interface SyncPlanEntry {
  /** The id as the server stores it (`normalizeDocumentId`). */
  documentId: string;
  ref?: string | undefined;
}

export interface SyncPlan {
  create: SyncPlanEntry[];
  update: SyncPlanEntry[];
  unchanged: SyncPlanEntry[];
  /** Owned documents the source no longer has (deleted only with `prune`). */
  delete: SyncPlanEntry[];
  /** Items of the source whose id could not be known (they fail in the run, and block a prune). */
  unknown: SyncPlanEntry[];
  /** The pair's documents this source owns. */
  owned: number;
  /**
   * Why the plan cannot be carried out as asked: a prune over `maxDelete` without `force`. Set,
   * the run sends nothing.
   */
  refused: string | undefined;
  /** Why deletions are left out although `prune` was asked (items of unknown id). */
  pruneBlocked: string | undefined;
}

export interface SyncResult {
  action: Exclude<SyncAction, 'unchanged'>;
  documentId: string | null;
  ref: string | undefined;
  /**
   * The ingestion's status for creates and updates; for deletes `deleted` (also when the server
   * no longer had it: 404), `not-deletable` (400: not created by ingestion), `failed` or `aborted`.
   */
  status: IngestResult['status'] | 'deleted' | 'not-deletable';
  error?: KisError | Error | undefined;
}

export interface SyncSummary {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  notDeletable: number;
  failed: number;
  aborted: number;
  /** The ingestion part's own summary (rate, retries, concurrency, outages). */
  ingest: IngestSummary | undefined;
  /** Set when the run stopped before the end (an outage, a refused key, a cancel). */
  stopped: string | undefined;
}

/** A sync in progress: results as they come, then the summary (consume like `IngestRun`). */
export interface SyncRun extends AsyncIterable<SyncResult> {
  done(): Promise<SyncSummary>;
  /** Stop gracefully: requests in flight finish, nothing new starts, no deletion follows. */
  stop(): void;
}

/** How {@link SyncSession.run} carries the plan out. */
export interface SyncRunOptions {
  /**
   * Send the creates and updates (default true). `false` carries out the deletions alone, for a
   * caller that sends the documents another way (queue workers, `@kis/queue`).
   */
  send?: boolean | undefined;
}

/** What `sync` resolves with: the plan, and a run that carries it out. */
export interface SyncSession {
  plan: SyncPlan;
  /** Carry the plan out (throws when `plan.refused`). */
  run(options?: SyncRunOptions): SyncRun;
}
