/**
 * Bulk ingestion: `kis.ingestMany(source, options)` returns an `IngestRun`.
 *
 * - Pulls from any Iterable/AsyncIterable only as slots free, so memory is bounded by the
 *   concurrency, not by the input size.
 * - Bounded concurrency (default 8) with a shared AIMD throttle: a 429 or 503 answer halves the
 *   number of requests in flight (at most once per round of requests), each success window adds
 *   one back, up to the configured concurrency.
 * - The document id is fixed before the first attempt (the caller's id, or the one the server
 *   would derive), so retries and re-runs are upserts.
 * - One failing document never stops the rest; each document yields exactly one result.
 * - Optional journal (`IngestJournal`): documents acknowledged with the same content are skipped;
 *   an acknowledgement is recorded before the document counts as done.
 * - Cancellation by AbortSignal (or by leaving a `for await` loop early): no new request starts;
 *   requests in flight are aborted and reported with status `aborted`.
 */

import { deriveDocumentId, normalizeDocumentId, rawDerivedId } from './document-id.js';
import { APIUserAbortError, DocumentValidationError, KisError } from './errors.js';
import type {
  AbortRegistry,
  CallControl,
  RequestOptions,
  RetryEvent,
} from './internal/transport.js';
import { assertIngestionRequest } from './internal/validate.js';
import { contentHash, type IngestJournal } from './journal.js';
import type { LevelLogger } from './logging.js';
import type { IngestionDocument, IngestionRequest, IngestionResult } from './types.js';

/** One input item: a bare document, or a document with its own pair id and a caller label. */
export type IngestInput = IngestionDocument | IngestItem;

export interface IngestItem {
  document: IngestionDocument;
  /** Overrides the run's `ccPairId` for this document. */
  ccPairId?: number | null | undefined;
  /** Opaque caller label carried into the result, e.g. `docs/a.md` or `export.jsonl:17`. */
  ref?: string | undefined;
}

export interface IngestManyOptions {
  /** Pair the documents are attached to (items may override). Omitted: the server's default. */
  ccPairId?: number | null | undefined;
  /** Most requests in flight. Default 8. */
  concurrency?: number | undefined;
  /** Skip documents already acknowledged with the same content; record new acknowledgements. */
  journal?: IngestJournal | undefined;
  /** Stops the run: no new request starts, requests in flight are aborted. */
  signal?: AbortSignal | undefined;
  /** Called after every result with running counts. */
  onProgress?: ((progress: IngestProgress) => void) | undefined;
  /** Called with every result (also when the run is consumed with `done()`). */
  onResult?: ((result: IngestResult) => void) | undefined;
  /** Retries per document (default: the client's `maxRetries`). */
  maxRetries?: number | undefined;
  /** Per-attempt time-out (default: the client's `timeoutMs`). */
  timeoutMs?: number | undefined;
  /** Validate each request against the spec before sending (default true). */
  validate?: boolean | undefined;
  /** Shrink concurrency on 429/503 and grow it back (default true). */
  adaptive?: boolean | undefined;
}

export type IngestStatus = 'created' | 'updated' | 'skipped' | 'failed' | 'aborted';

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
   * same content; `failed`: invalid or refused (see `error`); `aborted`: cancelled in flight.
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
  inFlight: number;
  /** Current concurrency limit (lower than configured while throttled). */
  concurrency: number;
}

export interface IngestSummary {
  /** Results produced (created + updated + failed + skipped + aborted). */
  total: number;
  created: number;
  updated: number;
  failed: number;
  skipped: number;
  aborted: number;
  /** Retry attempts made over all documents. */
  retried: number;
  elapsedMs: number;
  /** Acknowledged documents (created + updated) per second. */
  ratePerSec: number;
  /** True when the run was stopped by its signal or by leaving the loop early. */
  cancelled: boolean;
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
}

/** What the engine needs from the client. */
export interface IngestEngine {
  log: LevelLogger;
  maxRetries: number;
  timeoutMs: number;
  ingest(body: IngestionRequest, control: CallControl): Promise<IngestionResult>;
}

/** A request body ready to send with the id the server will store it under. */
export interface PreparedIngestion {
  body: IngestionRequest;
  documentId: string;
}

/**
 * Validate (optionally) and fix the document id: the caller's id, else the raw form of the id the
 * server would derive, so every attempt and every re-run is an upsert of the same document.
 */
export function prepareIngestion(
  document: IngestionDocument,
  ccPairId: number | null | undefined,
  validate: boolean,
  label?: string,
): PreparedIngestion {
  const withPair = (d: IngestionDocument): IngestionRequest =>
    ccPairId === null || ccPairId === undefined
      ? { document: d }
      : { document: d, cc_pair_id: ccPairId };
  if (validate) assertIngestionRequest(withPair(document), label);
  else if (typeof document !== 'object' || document === null) {
    throw new DocumentValidationError(
      `Invalid ingestion request${label ? ` (${label})` : ''}: document: must be object`,
      [{ path: 'document', message: 'must be object', keyword: 'type' }],
    );
  }
  if (typeof document.id === 'string' && document.id !== '') {
    return { body: withPair(document), documentId: normalizeDocumentId(document.id) };
  }
  const si = document.semantic_identifier;
  return {
    body: withPair({ ...document, id: rawDerivedId(si) }),
    documentId: deriveDocumentId(si),
  };
}

function isItem(x: unknown): x is IngestItem {
  return (
    typeof x === 'object' &&
    x !== null &&
    'document' in x &&
    typeof (x as { document: unknown }).document === 'object' &&
    !('semantic_identifier' in x)
  );
}

type Pull = () => Promise<IteratorResult<IngestInput>> | IteratorResult<IngestInput>;

function puller(source: Iterable<IngestInput> | AsyncIterable<IngestInput>): {
  pull: Pull;
  close: () => void;
} {
  const asyncIt = (source as AsyncIterable<IngestInput>)[Symbol.asyncIterator];
  if (typeof asyncIt === 'function') {
    const it = asyncIt.call(source);
    return { pull: () => it.next(), close: () => void it.return?.()?.catch?.(() => undefined) };
  }
  const syncIt = (source as Iterable<IngestInput>)[Symbol.iterator];
  if (typeof syncIt !== 'function') {
    throw new TypeError(
      'ingestMany(source): source must be an Iterable or AsyncIterable of documents',
    );
  }
  const it = syncIt.call(source);
  return { pull: () => it.next(), close: () => void it.return?.() };
}

/** AIMD concurrency limit shared by the requests of one run. */
class Throttle {
  limit: number;
  private epoch = 0;
  private successes = 0;
  constructor(
    readonly max: number,
    private readonly adaptive: boolean,
    private readonly log: LevelLogger,
  ) {
    this.limit = max;
  }
  /** Epoch to remember when a request starts. */
  current(): number {
    return this.epoch;
  }
  /** A 429/503 seen by a request started in `startedEpoch`. */
  congestion(startedEpoch: number, status: number): void {
    if (!this.adaptive || startedEpoch < this.epoch) return; // already reacted to this round
    this.epoch++;
    this.successes = 0;
    const next = Math.max(1, Math.floor(this.limit / 2));
    if (next !== this.limit) {
      this.log.log(
        'warn',
        `server answered ${status}: slowing down to ${next} request(s) in flight`,
      );
    }
    this.limit = next;
  }
  success(): void {
    if (!this.adaptive || this.limit >= this.max) return;
    if (++this.successes >= this.limit) {
      this.successes = 0;
      this.limit++;
      if (this.limit === this.max) this.log.log('info', `back to ${this.max} request(s) in flight`);
    }
  }
}

class Run implements IngestRun {
  private mode: 'idle' | 'iterate' | 'drain' = 'idle';
  private readonly controller = new AbortController();
  private readonly aborts = new Set<() => void>();
  private readonly registry: AbortRegistry = {
    signal: this.controller.signal,
    add: (abort) => this.aborts.add(abort),
    delete: (abort) => this.aborts.delete(abort),
  };
  private readonly throttle: Throttle;
  private readonly started = Date.now();
  private startedAt = 0;
  private readonly counts = {
    created: 0,
    updated: 0,
    failed: 0,
    skipped: 0,
    aborted: 0,
    retried: 0,
  };
  private inFlight = 0;
  private finished = false;
  private failure: unknown;
  private cancelled = false;
  private readonly queue: IngestResult[] = [];
  private queueHead = 0;
  private readonly maxQueue: number;
  private wakeProducer: (() => void) | undefined;
  private wakeConsumer: (() => void) | undefined;
  private resolveSummary!: (s: IngestSummary) => void;
  private rejectSummary!: (e: unknown) => void;
  private readonly summaryPromise: Promise<IngestSummary>;
  private readonly validate: boolean;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly engine: IngestEngine,
    private readonly source: Iterable<IngestInput> | AsyncIterable<IngestInput>,
    private readonly options: IngestManyOptions,
  ) {
    const concurrency = options.concurrency ?? 8;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new TypeError(
        `ingestMany: concurrency must be an integer ≥ 1 (got ${String(concurrency)})`,
      );
    }
    if (
      options.ccPairId !== undefined &&
      options.ccPairId !== null &&
      (!Number.isInteger(options.ccPairId) || options.ccPairId < 0)
    ) {
      throw new TypeError(
        `ingestMany: ccPairId must be a non-negative integer (got ${String(options.ccPairId)})`,
      );
    }
    this.throttle = new Throttle(concurrency, options.adaptive !== false, engine.log);
    this.maxQueue = Math.max(16, concurrency * 2);
    this.validate = options.validate !== false;
    this.maxRetries = options.maxRetries ?? engine.maxRetries;
    this.timeoutMs = options.timeoutMs ?? engine.timeoutMs;
    this.summaryPromise = new Promise((resolve, reject) => {
      this.resolveSummary = resolve;
      this.rejectSummary = reject;
    });
    // an unobserved rejection must not crash the process; callers see it via done()/iteration
    this.summaryPromise.catch(() => undefined);
    const signal = options.signal;
    if (signal) {
      if (signal.aborted) this.cancel();
      else signal.addEventListener('abort', () => this.cancel(), { once: true });
    }
  }

  get summary(): Promise<IngestSummary> {
    return this.done();
  }

  done(): Promise<IngestSummary> {
    if (this.mode === 'idle') this.start('drain');
    return this.summaryPromise;
  }

  progress(): IngestProgress {
    const c = this.counts;
    return {
      done: c.created + c.updated + c.failed + c.skipped + c.aborted,
      created: c.created,
      updated: c.updated,
      failed: c.failed,
      skipped: c.skipped,
      aborted: c.aborted,
      inFlight: this.inFlight,
      concurrency: this.throttle.limit,
    };
  }

  [Symbol.asyncIterator](): AsyncIterator<IngestResult> {
    if (this.mode !== 'idle') {
      throw new TypeError(
        this.mode === 'drain'
          ? 'ingestMany: iterate the run before calling done() or reading summary'
          : 'ingestMany: a run can be iterated only once',
      );
    }
    this.start('iterate');
    return {
      next: () => this.nextResult(),
      return: async () => {
        if (!this.finished) this.cancel();
        return { done: true, value: undefined };
      },
    };
  }

  private async nextResult(): Promise<IteratorResult<IngestResult>> {
    for (;;) {
      if (this.queueHead < this.queue.length) {
        const value = this.queue[this.queueHead] as IngestResult;
        this.queue[this.queueHead++] = undefined as never;
        if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
          this.queue.splice(0, this.queueHead);
          this.queueHead = 0;
        }
        this.wake();
        return { done: false, value };
      }
      if (this.finished) {
        if (this.failure !== undefined) throw this.failure;
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => {
        this.wakeConsumer = resolve;
      });
    }
  }

  private cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.controller.abort();
    for (const abort of this.aborts) abort();
    this.aborts.clear();
    this.wake();
  }

  private wake(): void {
    const p = this.wakeProducer;
    if (p) {
      this.wakeProducer = undefined;
      p();
    }
  }

  private wakeConsumerNow(): void {
    const c = this.wakeConsumer;
    if (c) {
      this.wakeConsumer = undefined;
      c();
    }
  }

  private start(mode: 'iterate' | 'drain'): void {
    this.mode = mode;
    this.startedAt = Date.now();
    this.pump().then(
      () => this.finish(undefined),
      (err) => this.finish(err ?? new Error('ingestMany: the input source failed')),
    );
  }

  private finish(err: unknown): void {
    this.finished = true;
    this.failure = err;
    this.wakeConsumerNow();
    if (err !== undefined) this.rejectSummary(err);
    else this.resolveSummary(this.makeSummary());
  }

  private makeSummary(): IngestSummary {
    const c = this.counts;
    const elapsedMs = Date.now() - (this.startedAt || this.started);
    const acked = c.created + c.updated;
    return {
      total: c.created + c.updated + c.failed + c.skipped + c.aborted,
      created: c.created,
      updated: c.updated,
      failed: c.failed,
      skipped: c.skipped,
      aborted: c.aborted,
      retried: c.retried,
      elapsedMs,
      ratePerSec: elapsedMs > 0 ? (acked * 1000) / elapsedMs : acked,
      cancelled: this.cancelled,
    };
  }

  private hasSlot(): boolean {
    return (
      this.inFlight < this.throttle.limit &&
      (this.mode === 'drain' || this.queue.length - this.queueHead < this.maxQueue)
    );
  }

  private async pump(): Promise<void> {
    const { pull, close } = puller(this.source);
    let index = 0;
    let sourceDone = false;
    let sourceError: unknown;
    try {
      while (!this.cancelled) {
        while (!this.hasSlot() && !this.cancelled) {
          await new Promise<void>((resolve) => {
            this.wakeProducer = resolve;
          });
        }
        if (this.cancelled) break;
        let next: IteratorResult<IngestInput>;
        try {
          const n = pull();
          next = n instanceof Promise ? await n : n;
        } catch (err) {
          sourceError = err;
          sourceDone = true;
          break;
        }
        if (next.done) {
          sourceDone = true;
          break;
        }
        this.launch(next.value, index++);
      }
    } finally {
      if (!sourceDone) close();
    }
    while (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        this.wakeProducer = resolve;
      });
    }
    if (sourceError !== undefined) throw sourceError;
  }

  private launch(input: IngestInput, index: number): void {
    this.inFlight++;
    this.process(input, index).then(
      (result) => this.complete(result),
      (err) =>
        this.complete({
          index,
          ref: undefined,
          documentId: null,
          ccPairId: null,
          status: 'failed',
          attempts: 0,
          error: KisError.isInstance(err)
            ? err
            : new KisError(String((err as Error)?.message ?? err), { cause: err }),
        }),
    );
  }

  private complete(result: IngestResult): void {
    this.inFlight--;
    this.counts[result.status]++;
    if (this.mode === 'iterate') {
      this.queue.push(result);
      this.wakeConsumerNow();
    }
    try {
      this.options.onResult?.(result);
      this.options.onProgress?.(this.progress());
    } catch (err) {
      this.engine.log.log(
        'warn',
        `ingestMany: a progress/result callback threw: ${String((err as Error)?.message ?? err)}`,
      );
    }
    this.wake();
  }

  private async process(input: IngestInput, index: number): Promise<IngestResult> {
    const item = isItem(input) ? input : undefined;
    const document = (item ? item.document : input) as IngestionDocument;
    const ref = item?.ref;
    const rawPair = item && item.ccPairId !== undefined ? item.ccPairId : this.options.ccPairId;
    const ccPairId = rawPair ?? null;
    const base = { index, ref, ccPairId };
    let prepared: PreparedIngestion;
    try {
      prepared = prepareIngestion(document, ccPairId, this.validate, ref ?? `item ${index}`);
    } catch (err) {
      return { ...base, documentId: null, status: 'failed', attempts: 0, error: err as KisError };
    }
    const { body, documentId } = prepared;
    const journal = this.options.journal;
    let hash: string | undefined;
    if (journal) {
      hash = await contentHash(body);
      if (await journal.has(documentId, hash)) {
        return { ...base, documentId, status: 'skipped', attempts: 0 };
      }
    }
    if (this.cancelled) {
      return {
        ...base,
        documentId,
        status: 'aborted',
        attempts: 0,
        error: new APIUserAbortError('ingestMany was cancelled before this document was sent.'),
      };
    }
    let retries = 0;
    // throttle epoch of the attempt in flight: congestion seen by an attempt sent before the
    // last slow-down was already answered by it
    let epoch = this.throttle.current();
    const control: CallControl = {
      registry: this.registry,
      maxRetries: this.maxRetries,
      timeoutMs: this.timeoutMs,
      onRetry: (_e: RetryEvent) => {
        retries++;
        this.counts.retried++;
        epoch = this.throttle.current();
      },
      onStatus: (status) => {
        if (status === 429 || status === 503) this.throttle.congestion(epoch, status);
      },
    };
    let answer: IngestionResult;
    try {
      answer = await this.engine.ingest(body, control);
    } catch (err) {
      const error = KisError.isInstance(err) ? err : new KisError(String(err), { cause: err });
      const aborted = APIUserAbortError.isInstance(error);
      return {
        ...base,
        documentId,
        status: aborted ? 'aborted' : 'failed',
        attempts: retries + 1,
        error,
      };
    }
    this.throttle.success();
    const status = answer.already_existed ? 'updated' : 'created';
    const storedId =
      typeof answer.document_id === 'string' && answer.document_id
        ? answer.document_id
        : documentId;
    if (journal && hash !== undefined) {
      // the acknowledgement is durable before the document counts as done
      try {
        await journal.record({
          id: documentId,
          hash,
          status,
          ccPairId,
          at: new Date().toISOString(),
        });
      } catch (err) {
        const error = new KisError(
          `The server stored document ${storedId} (${status}) but the journal could not record it: ${String((err as Error)?.message ?? err)}. A re-run will send it again (an upsert).`,
          { cause: err },
        );
        return { ...base, documentId: storedId, status: 'failed', attempts: retries + 1, error };
      }
    }
    return { ...base, documentId: storedId, status, attempts: retries + 1 };
  }
}

/** @internal used by the client */
export function createIngestRun(
  engine: IngestEngine,
  source: Iterable<IngestInput> | AsyncIterable<IngestInput>,
  options: IngestManyOptions = {},
): IngestRun {
  if (source === null || source === undefined) {
    throw new TypeError(
      'ingestMany(source): source must be an Iterable or AsyncIterable of documents',
    );
  }
  return new Run(engine, source, options);
}

export type { RequestOptions };
