/**
 * Bulk ingestion: `kis.ingestMany(source, options)` returns an `IngestRun` (the engine is in
 * `internal/bulk/`; README, "Bulk ingestion").
 *
 * - Pulls from any Iterable/AsyncIterable only as it can send, so memory stays flat.
 * - Adaptive concurrency up to a ceiling (default 64): it backs off when the server queues or
 *   refuses more as load grows, and holds its level through random faults.
 * - The document id is fixed before the first attempt (the caller's id, or the one the server
 *   would derive), so retries and re-runs are upserts.
 * - Each document is retried until it is stored or its failure is final: a 4xx other than 408,
 *   409, 429, or a spent retry budget (default 10 minutes). One failing document never stops
 *   the rest; each document yields exactly one result.
 * - When nothing succeeds for a while the run pauses and probes, and resumes when the server is
 *   back; a pause longer than `maxOutageMs` (default 5 minutes) stops it (`summary.stopped`).
 * - Optional journal (`IngestJournal`): documents acknowledged with the same content are skipped;
 *   an acknowledgement is recorded before the document counts as done.
 * - Cancellation by AbortSignal (or by leaving a `for await` loop early): no new request starts;
 *   requests in flight are aborted and reported with status `aborted`.
 */

import type { KisError } from './errors.js';
import type { ReleaseOf } from './internal/release.js';
import type { IngestJournal, Sha256 } from './journal.js';
import type { LevelLogger } from './logging.js';
import type { CallControl } from './request-options.js';
import type { IngestionDocumentInput, IngestionRequestInput, IngestionResult } from './types.js';
import type { UploadFile } from './upload-file.js';

/** One input item: a bare document, or a document with its own pair id and a caller label. */
export type IngestInput = IngestionDocumentInput | IngestItem;

export interface IngestItem {
  /** The document; or give `load` to build it when the run is ready to send it. */
  document?: IngestionDocumentInput | undefined;
  /**
   * Builds the document when the run has room for it (reading and extracting a file, uploading
   * its images): at most as many loads run as requests may be in flight. A load that throws
   * fails this document alone, with its message.
   */
  load?:
    | ((tools: IngestTools) => IngestionDocumentInput | Promise<IngestionDocumentInput>)
    | undefined;
  /** Overrides the run's `ccPairId` for this document. */
  ccPairId?: number | null | undefined;
  /** Opaque caller label carried into the result, e.g. `docs/a.md` or `export.jsonl:17`. */
  ref?: string | undefined;
  /**
   * A cheap stamp of what the document is built from (a file's size and mtime, a JSONL line's
   * hash, with the options that shape the document), recorded in the journal with the
   * acknowledgement for the item's pair: `kis.sync`, and `ingestMany` for an item with an `id`,
   * take a matching one as proof the item is unchanged, without loading or hashing it.
   */
  fingerprint?: string | undefined;
  /** The document's id when known before loading, as `document.id` gives it. */
  id?: string | undefined;
}

/** What a `load` gets from the run. */
export interface IngestTools {
  /**
   * The `file_id` of an image for an image section: uploaded once per distinct content (the
   * journal remembers it for resumed runs). In a dry run nothing is uploaded and a placeholder
   * id comes back.
   */
  imageFileId(file: UploadFile): Promise<string>;
  /** Aborts when the run is cancelled or stops. */
  signal: AbortSignal;
}

export interface IngestManyOptions {
  /** Pair the documents are attached to (items may override). Omitted: the server's default. */
  ccPairId?: number | null | undefined;
  /**
   * Most requests in flight: the ceiling of the adaptive limit (or the fixed limit with
   * `adaptive: false`). Default 64.
   */
  concurrency?: number | undefined;
  /** Fewest requests in flight the adaptive limit goes down to. Default 1. */
  minConcurrency?: number | undefined;
  /** Skip documents already acknowledged with the same content; record new acknowledgements. */
  journal?: IngestJournal | undefined;
  /** Stops the run: no new request starts, requests in flight are aborted. */
  signal?: AbortSignal | undefined;
  /** Called after every result with running counts. */
  onProgress?: ((progress: IngestProgress) => void) | undefined;
  /** Called with every result (also when the run is consumed with `done()`). */
  onResult?: ((result: IngestResult) => void) | undefined;
  /**
   * How long a document may be retried, in ms, not counting outage pauses. Default 600 000
   * (10 minutes): bulk work outlasts the faults that single calls give up on.
   */
  retryForMs?: number | undefined;
  /** Longest outage (no request succeeding) the run waits through, in ms. Default 300 000. */
  maxOutageMs?: number | undefined;
  /** An extra cap on retries per document (default: none; the time budget decides). */
  maxRetries?: number | undefined;
  /** Per-attempt time-out (default: the client's `timeoutMs`). */
  timeoutMs?: number | undefined;
  /** Validate each request against the spec before sending (default true). */
  validate?: boolean | undefined;
  /** Adapt the limit to the server (default true); false keeps it at `concurrency`. */
  adaptive?: boolean | undefined;
  /** Validate and resolve each document's id, send nothing: results have status `valid`. */
  dryRun?: boolean | undefined;
  /**
   * Send a second copy of a document whose answer is long overdue (default true; README, "Slow
   * answers"). False keeps every document to one request on the wire at a time, for callers that
   * hold their own ceiling on requests in flight (the queue's workers).
   */
  hedge?: boolean | undefined;
  /**
   * Called after every request of the run (retries and hedges included) with how it ended: for
   * callers that watch the server's answers (the queue backs off all workers on overload).
   */
  onAttempt?: ((attempt: IngestAttempt) => void) | undefined;
  /**
   * A limit shared with other processes, asked before every request of the run (retries
   * included): the request waits for `acquire` and calls the release it resolves with when it
   * ends. The queue's workers hold one rate and one ceiling across machines this way. A run with
   * a gate sends no hedges, since a second copy would bypass it.
   */
  requestGate?: RequestGate | undefined;
}

/** Permission for one request under a limit shared with other processes (`requestGate`). */
export interface RequestGate {
  /**
   * Resolves when a request may go out, with the function to call when it has ended; rejects (or
   * resolves with a no-op) once `signal` aborts, and the request is then not sent.
   */
  acquire(signal: AbortSignal): Promise<() => void>;
}

/** How one request of a bulk run ended (`IngestManyOptions.onAttempt`). */
export interface IngestAttempt {
  /** The document's id. */
  documentId: string;
  /** The answer's status, when the server answered. */
  status?: number | undefined;
  /** Why there was no answer: no connection, or none in time. */
  error?: 'connection' | 'timeout' | undefined;
  /** The wait the server asked for (`Retry-After`, `retry-after-ms`), when it asked. */
  retryAfterMs?: number | undefined;
  /** Time from sending to the answer or failure. */
  ms: number;
}

export type IngestStatus = 'created' | 'updated' | 'skipped' | 'failed' | 'aborted' | 'valid';

export interface IngestResult {
  /** Position of the item in the input (0-based). */
  index: number;
  /** The item's `ref`, if it had one. */
  ref: string | undefined;
  /** Id the document is stored under (null when the item was too malformed to derive one). */
  documentId: string | null;
  /** Pair id sent (null: the server default). */
  ccPairId: number | null;
  /**
   * `created`/`updated`: acknowledged by the server; `skipped`: already in the journal with the
   * same content; `failed`: invalid, refused, or out of retry budget (see `error`); `aborted`:
   * not stored because the run was cancelled or stopped; `valid`: a dry run's valid document.
   */
  status: IngestStatus;
  /** HTTP attempts made (0 when nothing was sent). */
  attempts: number;
  /** Why it failed or was aborted. */
  error?: KisError | undefined;
}

export interface IngestProgress {
  done: number;
  created: number;
  updated: number;
  failed: number;
  skipped: number;
  aborted: number;
  /** Requests on the wire now (sent and not answered). */
  inFlight: number;
  /** Documents waiting to retry (or for a free request slot). */
  waiting: number;
  /** The concurrency limit now. */
  concurrency: number;
  /** Stored documents per second since the start. */
  ratePerSec: number;
  /** When the run paused for an outage (ms since epoch), while it is paused. */
  pausedSince: number | undefined;
  /** The last error before the pause, while it is paused. */
  pauseReason: string | undefined;
}

export interface IngestSummary {
  /** Results produced (created + updated + failed + skipped + aborted + valid). */
  total: number;
  created: number;
  updated: number;
  failed: number;
  skipped: number;
  aborted: number;
  /** Valid documents of a dry run. */
  valid: number;
  /** Retry attempts made over all documents. */
  retried: number;
  /**
   * Sends still unanswered long after the run's usual answer time that got a second copy of the
   * same document (the first answer wins; README, "Slow answers").
   */
  hedged: number;
  elapsedMs: number;
  /** Acknowledged documents (created + updated) per second. */
  ratePerSec: number;
  /** True when the run was stopped by its signal or by leaving the loop early. */
  cancelled: boolean;
  /** The concurrency limit at the end, and the lowest and highest it reached. */
  concurrency: { final: number; min: number; max: number };
  /** Time spent paused through outages. */
  pausedMs: number;
  /**
   * Set when the run stopped by itself: an outage outlasted `maxOutageMs` (`outage`), the
   * server refused what no document can get past: the key, its role, or a base URL that is not
   * the API (`refused`), or no server could be reached before anything was stored
   * (`unreachable`: a wrong URL, or a server not running). `error` is the answer or connection
   * failure that stopped it (`refused`, `unreachable`), for callers that word their own message.
   */
  stopped:
    | {
        reason: 'outage' | 'refused' | 'unreachable';
        message: string;
        error?: KisError | undefined;
      }
    | undefined;
}

/**
 * A bulk ingestion in progress. Consume it one of two ways:
 *
 * ```ts
 * const run = kis.ingestMany(docs, { ccPairId });
 * for await (const r of run) if (r.status === 'failed') console.error(r.ref, r.error?.message);
 * const summary = await run.summary; // or: await run.done()
 * ```
 * or, when only the totals matter, `const summary = await kis.ingestMany(docs).done();`
 *
 * The run starts when iteration starts or `done()` is called (reading `summary` calls
 * `done()`). Only one `for await` loop may consume it, and it must begin before `done()`.
 * Leaving the loop early cancels the run.
 */
export interface IngestRun extends AsyncIterable<IngestResult> {
  /** Start (without collecting results) if not started; resolves with the summary at the end. */
  done(): Promise<IngestSummary>;
  /** Same promise as `done()`. */
  readonly summary: Promise<IngestSummary>;
  /** Running counts now. */
  progress(): IngestProgress;
  /**
   * Stop gracefully (a first Ctrl-C): no new document is read, documents waiting to retry end
   * `aborted`, requests on the wire finish and count. The `signal` option aborts those too.
   */
  stop(): void;
}

/** What the engine needs from the client. */
export interface IngestEngine {
  log: LevelLogger;
  timeoutMs: number;
  /** The SHA-256 a journal's content hashes are computed with (`contentHash`). */
  sha256: Sha256;
  /** The server's release (asked once per client): how to read `already_existed`. */
  release: ReleaseOf;
  /** One attempt (the engine retries): the transport is told `maxRetries: 0`. */
  ingest(body: IngestionRequestInput, control: CallControl): Promise<IngestionResult>;
  /** Uploads one image for `IngestTools.imageFileId`; resolves with its file id. */
  uploadImage(file: UploadFile, control: CallControl): Promise<string>;
}
