/**
 * The names and shapes of a verification (`verifyPair`, verify.ts): its checks, the reasons a
 * document fails, its options, results and summary. Apart from verify.ts so that the engine,
 * which verify.ts loads, reads them without importing its loader.
 */
import type { IngestInput } from './ingest.js';
import type { KisClient } from './kis-client.js';

/**
 * `present`: the pair's listing has it. `indexed`: it has chunks (`document-size-info`).
 * `findable`: admin search puts it in the first 10 for its title or a phrase of its text.
 * `visible`: the `as` key sees it exactly when one of its pairs grants that key.
 */
export type VerifyCheck = 'present' | 'indexed' | 'findable' | 'visible';

export const VERIFY_CHECKS: readonly VerifyCheck[] = Object.freeze([
  'present',
  'indexed',
  'findable',
  'visible',
]);

/**
 * Why a document failed: `missing` (not listed in the pair), `unindexed` (no chunks this key can
 * see though its pairs grant it: not indexed, or indexed with access its pairs no longer give),
 * `hidden` (admin search marks it hidden: ordinary search leaves it out),
 * `unfindable` (indexed, but not in the first 10 for its queries), `not-visible` (the `as` key
 * should see it and does not), `unexpectedly-visible` (the `as` key sees it and should not),
 * `unreadable` (the source item gave no document), `failed-call` (a check's call failed after the
 * client's retries).
 */
export type VerifyReason =
  | 'missing'
  | 'unindexed'
  | 'hidden'
  | 'unfindable'
  | 'not-visible'
  | 'unexpectedly-visible'
  | 'unreadable'
  | 'failed-call';

export const VERIFY_REASONS: readonly VerifyReason[] = Object.freeze([
  'missing',
  'unindexed',
  'hidden',
  'unfindable',
  'not-visible',
  'unexpectedly-visible',
  'unreadable',
  'failed-call',
]);

/** A check of one document: passed, failed, or not made (said why in the summary's notes). */
export type CheckOutcome = 'passed' | 'failed' | 'skipped';

/** One document's checks. */
export interface VerifyResult {
  /** The stored id ('' when the source item gave none). */
  documentId: string;
  /** The source item's label (a file's path, `export.jsonl:17`), when it has one. */
  ref: string | undefined;
  /** True when no check failed. */
  ok: boolean;
  /** Why it failed, in check order (empty when `ok`). */
  reasons: VerifyReason[];
  checks: Partial<Record<VerifyCheck, CheckOutcome>>;
  /** Its chunks as this key sees them (`document-size-info`), when asked and answered. */
  chunks?: number | undefined;
  /** The admin search query that found it, or the last one tried. */
  query?: string | undefined;
  /** Its rank among that query's documents (0 = first), when found. */
  rank?: number | undefined;
  /** What went wrong, for `unreadable` and `failed-call`. */
  detail?: string | undefined;
  /** The source item it was checked from (verifications of a source): what a repair re-sends. */
  item?: IngestInput | undefined;
}

export interface VerifyProgress {
  /** Documents checked so far. */
  done: number;
  /** Of which failed a check. */
  failed: number;
  /** Documents to check, once known. */
  total: number | undefined;
  ratePerSec: number;
}

/** An embedding-model switch in progress (`GET /search-settings/get-secondary-search-settings`). */
export interface ModelSwitchState {
  /** The new index's name: a re-push is recorded for it. */
  indexName: string;
  modelName: string;
  switchover: string | null;
  /** The port flow (v4.4.0 on) copies pushed documents; the legacy flow does not. */
  portFlow: boolean;
  /**
   * True while the new index lacks the pair's pushed documents: a legacy switch, with no re-push
   * of the pair recorded for it (`repushed`). Searches read the current index only, so no check
   * can see the new one: a re-push of the whole pair is the only remedy.
   */
  needsRepush: boolean;
  /** When the pair was re-pushed for this switch, if the caller recorded it. */
  repushedAt: string | undefined;
}

export interface VerifyOptions {
  /** The pair whose documents are checked. */
  ccPairId: number;
  /**
   * What should be in the pair: documents or `ingestMany` items (a folder's, a JSONL file's,
   * items with only an `id`, as a journal gives them). Without it, the pair's own listing.
   */
  source?: Iterable<IngestInput> | AsyncIterable<IngestInput> | undefined;
  /** The checks (default: `present`, `indexed`, `findable`, and `visible` with `as`). */
  checks?: readonly VerifyCheck[] | undefined;
  /** Another key's client: checks that it sees exactly the documents its pairs grant it. */
  as?: KisClient | undefined;
  /** Check a random sample of this many documents instead of all. */
  sample?: number | undefined;
  /** The sample's seed (default: a random one, reported in the summary to repeat the run). */
  seed?: number | undefined;
  /** Documents checked at once (default 16); each check's calls retry as the client's do. */
  concurrency?: number | undefined;
  /** Failing ids kept per reason in the summary (default 1,000); all are counted. */
  maxIdsPerReason?: number | undefined;
  /** The number of documents in `source`, when the caller can count them (progress only). */
  total?: number | Promise<number> | undefined;
  /** A re-push of the pair recorded for a model switch: `{ indexName, at }` (see `modelSwitch`). */
  repushed?: { indexName: string; at: string } | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: VerifyProgress) => void) | undefined;
}

export interface CheckCounts {
  passed: number;
  failed: number;
  skipped: number;
}

export interface VerifySummary {
  ccPairId: number;
  /** Documents in the source, or in the pair's listing without one (the population of a sample). */
  total: number;
  /** Documents checked. */
  checked: number;
  /** The seed of a sample, undefined when every document was checked. */
  sampleSeed: number | undefined;
  /** True when no document failed and no model switch needs a re-push. */
  ok: boolean;
  checks: Record<VerifyCheck, CheckCounts>;
  /** Failing documents by reason: every one counted, the first `maxIdsPerReason` ids kept. */
  failures: Partial<Record<VerifyReason, { count: number; ids: string[] }>>;
  /** Documents the pair lists that the source does not have (undefined: not counted). */
  extra: number | undefined;
  /** The model switch in progress, or null. */
  modelSwitch: ModelSwitchState | null;
  /** What could not be checked, and why (a key that may not search, unknown groups, …). */
  notes: string[];
  elapsedMs: number;
  ratePerSec: number;
  /** Set when the run was stopped before the end. */
  stopped: string | undefined;
}

/** A verification in progress: its results as they come, then its summary. */
export interface VerifyRun extends AsyncIterable<VerifyResult> {
  /** Resolves once every document is checked (read the results first, or call `done`). */
  readonly summary: Promise<VerifySummary>;
  /**
   * The model switch in progress, known once the run has read its set-up (before its first
   * result): what a repair must re-push is decided by it.
   */
  readonly modelSwitch: Promise<ModelSwitchState | null>;
  /** Reads the results to the end and resolves with the summary. */
  done(): Promise<VerifySummary>;
  progress(): VerifyProgress;
  /** Takes no new document; those being checked finish. */
  stop(): void;
}
