/**
 * One bulk ingestion run (`kis.ingestMany`): pulls documents only as they can be sent, sends
 * each under the run's adaptive concurrency limit, retries it until it is stored or its failure
 * is final, pauses through outages, and yields one result per document (README, "Bulk
 * ingestion").
 */
import { APIUserAbortError, KisError } from '../../errors.js';
import type {
  IngestAttempt,
  IngestEngine,
  IngestInput,
  IngestItem,
  IngestManyOptions,
  IngestProgress,
  IngestResult,
  IngestRun,
  IngestSummary,
  RequestGate,
} from '../../ingest.js';
import { contentHash, type FingerprintMatcher, fingerprintMatcher } from '../../journal.js';
import type { CallControl } from '../../request-options.js';
import type {
  IngestionDocumentInput,
  IngestionRequestInput,
  IngestionResult,
} from '../../types.js';
import { abortRegistry } from '../abort.js';
import { sleep } from '../backoff.js';
import { type IngestionOutcome, ingestionOutcome } from '../ingestion-outcome.js';
import { recordedFingerprint, skippedByFingerprint } from './fingerprint-skip.js';
import { Hedger, ownRegistry } from './hedge.js';
import { ConcurrencyLimiter } from './limiter.js';
import { DEFAULT_MAX_CONCURRENCY } from './limits.js';
import { OutageGate } from './outage.js';
import { type PreparedIngestion, prepareIngestion } from './prepare.js';
import { neverReached, runStopping } from './refusals.js';
import { reportFailure } from './report-attempt.js';
import { BULK_DEFAULTS, classify, retryDelayMs } from './retry-policy.js';
import { Slots } from './slots.js';
import { isItem, puller } from './source.js';
import { hasUpdatedAt, updatedAtFor, withUpdatedAt } from './updated-at.js';
import { RunUploads } from './uploads.js';

/** The error of documents not stored because the run stopped by itself (`summary.stopped`). */
export class RunStopped extends KisError {
  static override readonly kind: string = 'RunStopped';
}

const noop = (): void => undefined;

const errorOf = (err: unknown): KisError =>
  KisError.isInstance(err)
    ? err
    : new KisError(String((err as Error)?.message ?? err), { cause: err });

export class BulkRun implements IngestRun {
  private mode: 'idle' | 'iterate' | 'drain' = 'idle';
  /** Requests and uploads on the wire: ended by cancelling. */
  private readonly registry = abortRegistry();
  /** Waits (for a retry, a probe turn, a slot): ended by `stop()` as well as by cancelling. */
  private readonly waits = abortRegistry();
  private stopping = false;
  private everStored = false;
  private readonly limiter: ConcurrencyLimiter | undefined;
  private readonly fixedLimit: number;
  private readonly slots: Slots;
  private readonly gate: OutageGate;
  private readonly counts = { created: 0, updated: 0, failed: 0, skipped: 0, aborted: 0, valid: 0 };
  private retried = 0;
  private readonly hedger = new Hedger();
  private active = 0;
  /** Documents with a request on the wire (sent, not yet answered). */
  private onWire = 0;
  private readonly maxActive: number;
  private startedAt = 0;
  private finished = false;
  private failure: unknown;
  private cancelled = false;
  private stopped: IngestSummary['stopped'];
  private readonly limits = { min: Number.POSITIVE_INFINITY, max: 0 };
  private readonly queue: IngestResult[] = [];
  private queueHead = 0;
  private wakeProducer: (() => void) | undefined;
  /** Ends the wait for the source's next document when the run stops (see pullOrStop). */
  private wakePull: (() => void) | undefined;
  private wakeConsumer: (() => void) | undefined;
  private resolveSummary!: (s: IngestSummary) => void;
  private rejectSummary!: (e: unknown) => void;
  private readonly summaryPromise: Promise<IngestSummary>;
  private readonly retryForMs: number;
  private readonly maxAttempts: number;
  private readonly timeoutMs: number;
  private readonly uploads: RunUploads;
  /** The journal's fingerprint check (undefined: no journal, or one that keeps none). */
  private readonly fingerprints: FingerprintMatcher | undefined;
  /** The server's release, asked with the run's first send (`already_existed` depends on it). */
  private release: Promise<string | undefined> | undefined;
  /** `options.onAttempt`, its throws logged rather than taken for the request's failure. */
  private readonly reportAttempt: ((attempt: IngestAttempt) => void) | undefined;

  constructor(
    private readonly engine: IngestEngine,
    private readonly source: Iterable<IngestInput> | AsyncIterable<IngestInput>,
    private readonly options: IngestManyOptions,
  ) {
    const max = options.concurrency ?? DEFAULT_MAX_CONCURRENCY;
    const min = Math.min(options.minConcurrency ?? 1, max);
    this.fixedLimit = max;
    this.limiter = options.adaptive === false ? undefined : new ConcurrencyLimiter({ max, min });
    this.slots = new Slots(() => this.limit());
    // documents in progress (sending, or waiting to retry): bounded, so memory stays flat
    this.maxActive = Math.max(256, max * 4);
    this.retryForMs = options.retryForMs ?? BULK_DEFAULTS.retryForMs;
    this.maxAttempts =
      options.maxRetries === undefined ? Number.POSITIVE_INFINITY : options.maxRetries + 1;
    this.timeoutMs = options.timeoutMs ?? engine.timeoutMs;
    const onAttempt = options.onAttempt;
    this.reportAttempt =
      onAttempt &&
      ((attempt) => {
        try {
          onAttempt(attempt);
        } catch (err) {
          this.engine.log.log('warn', `ingestMany: onAttempt threw: ${errorOf(err).message}`);
        }
      });
    this.fingerprints = fingerprintMatcher(options.journal);
    this.uploads = new RunUploads(
      // the run's abort registry, as for ingestion: no listener per upload on the run's signal
      (file) => engine.uploadImage(file, { registry: this.registry }),
      options.journal,
      options.dryRun === true,
    );
    this.gate = new OutageGate({
      maxOutageMs: options.maxOutageMs,
      onChange: (paused, info) => {
        this.engine.log.log(
          paused ? 'warn' : 'info',
          paused
            ? `the server is not answering (${info.reason}); pausing and probing until it is back`
            : `the server is back after ${Math.round((Date.now() - info.since) / 1000)} s; resuming`,
        );
        this.reportProgress();
        this.wake();
      },
    });
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
    const acked = c.created + c.updated;
    const elapsed = this.startedAt ? Date.now() - this.startedAt : 0;
    return {
      done: c.created + c.updated + c.failed + c.skipped + c.aborted + c.valid,
      created: c.created,
      updated: c.updated,
      failed: c.failed,
      skipped: c.skipped,
      aborted: c.aborted,
      inFlight: this.onWire,
      waiting: Math.max(0, this.active - this.slots.inUse),
      concurrency: this.limit(),
      ratePerSec: elapsed > 0 ? (acked * 1000) / elapsed : 0,
      pausedSince: this.gate.pausedSince,
      pauseReason: this.gate.paused ? this.gate.reason : undefined,
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

  private limit(): number {
    const limit = this.limiter ? this.limiter.limit : this.fixedLimit;
    if (limit < this.limits.min) this.limits.min = limit;
    if (limit > this.limits.max) this.limits.max = limit;
    return limit;
  }

  private async nextResult(): Promise<IteratorResult<IngestResult>> {
    for (;;) {
      if (this.queueHead < this.queue.length) {
        const value = this.queue[this.queueHead] as IngestResult;
        this.queue[this.queueHead++] = undefined as unknown as IngestResult;
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

  private cancel(reason?: KisError): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.registry.abort(reason);
    this.waits.abort(reason);
    this.wake();
  }

  private wake(): void {
    this.wakePull?.();
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
    this.hedger.stop();
    this.failure = err;
    this.wakeConsumerNow();
    if (err !== undefined) this.rejectSummary(err);
    else this.resolveSummary(this.makeSummary());
  }

  private makeSummary(): IngestSummary {
    const c = this.counts;
    const elapsedMs = Date.now() - this.startedAt;
    const acked = c.created + c.updated;
    return {
      total: c.created + c.updated + c.failed + c.skipped + c.aborted + c.valid,
      created: c.created,
      updated: c.updated,
      failed: c.failed,
      skipped: c.skipped,
      aborted: c.aborted,
      valid: c.valid,
      retried: this.retried,
      hedged: this.hedger.sent,
      elapsedMs,
      ratePerSec: elapsedMs > 0 ? (acked * 1000) / elapsedMs : acked,
      cancelled: this.cancelled && this.stopped === undefined,
      concurrency: {
        final: this.limit(),
        min: Number.isFinite(this.limits.min) ? this.limits.min : this.limit(),
        max: this.limits.max,
      },
      pausedMs: this.gate.pausedMs(),
      stopped: this.stopped,
    };
  }

  /**
   * Room for one more document: below the in-progress bound and, in a loop, the unread results'
   * bound; then the document's first request slot is taken here (`tryAcquire` fails while
   * retried documents wait for one), so the source is read only as requests can go out.
   */
  private takeRoom(): boolean {
    return (
      this.active < this.maxActive &&
      !this.gate.paused &&
      (this.mode === 'drain' || this.queue.length - this.queueHead < this.maxActive) &&
      this.slots.tryAcquire()
    );
  }

  private async pump(): Promise<void> {
    const { pull, close } = puller(this.source);
    let index = 0;
    let sourceDone = false;
    let sourceError: unknown;
    try {
      while (!this.cancelled && !this.stopping) {
        while (!this.cancelled && !this.stopping && !this.takeRoom()) {
          await new Promise<void>((resolve) => {
            this.wakeProducer = resolve;
          });
        }
        if (this.cancelled || this.stopping) break;
        let next: IteratorResult<IngestInput> | undefined;
        try {
          const n = pull();
          next = n instanceof Promise ? await this.pullOrStop(n) : n;
        } catch (err) {
          this.releaseSlot();
          sourceError = err;
          sourceDone = true;
          break;
        }
        if (next === undefined) {
          // stopped while an asynchronous source had no document yet: it is closed below
          this.releaseSlot();
          break;
        }
        if (next.done) {
          this.releaseSlot();
          sourceDone = true;
          break;
        }
        this.launch(next.value, index++);
      }
    } finally {
      if (!sourceDone) close();
    }
    while (this.active > 0) {
      await new Promise<void>((resolve) => {
        this.wakeProducer = resolve;
      });
    }
    if (sourceError !== undefined) throw sourceError;
  }

  /**
   * The source's next document, or undefined once the run is stopped or cancelled while it waits
   * for one (a source that waits for work, such as a queue, may never answer otherwise).
   */
  private pullOrStop(
    pending: Promise<IteratorResult<IngestInput>>,
  ): Promise<IteratorResult<IngestInput> | undefined> {
    return new Promise((resolve, reject) => {
      const wakePull = () => {
        if (this.cancelled || this.stopping) resolve(undefined);
      };
      this.wakePull = wakePull;
      pending.then(resolve, reject).finally(() => {
        // the next read may have begun already: leave its own
        if (this.wakePull === wakePull) this.wakePull = undefined;
      });
    });
  }

  /**
   * Starts a document, holding the request slot the pump took for its first attempt. One the
   * journal knows unchanged by its fingerprint, answered at once, is done here: a resumed run
   * skips its acknowledged part without a promise per document.
   */
  private launch(input: IngestInput, index: number): void {
    this.active++;
    const item = isItem(input) ? input : undefined;
    const fingerprint = recordedFingerprint(item, this.pairOf(item));
    const known = skippedByFingerprint(this.fingerprints, item, fingerprint);
    if (typeof known === 'string') {
      this.releaseSlot();
      this.complete(this.skippedResult(input, index, known));
      return;
    }
    const slot = { held: true };
    this.process(input, index, slot, known, fingerprint)
      .finally(() => {
        if (slot.held) this.releaseSlot();
      })
      .then(
        (result) => this.complete(result),
        (err) =>
          this.complete({
            index,
            ref: undefined,
            documentId: null,
            ccPairId: null,
            status: 'failed',
            attempts: 0,
            error: errorOf(err),
          }),
      );
  }

  private complete(result: IngestResult): void {
    this.active--;
    this.counts[result.status]++;
    if (this.mode === 'iterate') {
      this.queue.push(result);
      this.wakeConsumerNow();
    }
    try {
      this.options.onResult?.(result);
    } catch (err) {
      this.engine.log.log('warn', `ingestMany: onResult threw: ${errorOf(err).message}`);
    }
    this.reportProgress();
    this.wake();
  }

  private reportProgress(): void {
    try {
      this.options.onProgress?.(this.progress());
    } catch (err) {
      this.engine.log.log('warn', `ingestMany: onProgress threw: ${errorOf(err).message}`);
    }
  }

  /** The pair a document goes to: its item's, else the run's (null: the server's default). */
  private pairOf(item: IngestItem | undefined): number | null {
    const pair = item && item.ccPairId !== undefined ? item.ccPairId : this.options.ccPairId;
    return pair ?? null;
  }

  private skippedResult(input: IngestInput, index: number, documentId: string): IngestResult {
    const item = isItem(input) ? input : undefined;
    const ccPairId = this.pairOf(item);
    return { index, ref: item?.ref, ccPairId, documentId, status: 'skipped', attempts: 0 };
  }

  /**
   * Loads, checks and sends one document. `known`: the journal's later answer to the fingerprint
   * check; `fingerprint`: what the journal records with the acknowledgement (both from launch).
   */
  private async process(
    input: IngestInput,
    index: number,
    slot: { held: boolean },
    known: Promise<string | undefined> | undefined,
    fingerprint: string | undefined,
  ): Promise<IngestResult> {
    if (known !== undefined) {
      const skipped = await known;
      if (skipped !== undefined) return this.skippedResult(input, index, skipped);
    }
    const item = isItem(input) ? input : undefined;
    const ref = item?.ref;
    const ccPairId = this.pairOf(item);
    const base = { index, ref, ccPairId };
    const journal = this.options.journal;
    let document: IngestionDocumentInput;
    let prepared: PreparedIngestion;
    try {
      document = (item ? await this.load(item) : input) as IngestionDocumentInput;
      prepared = prepareIngestion(document, ccPairId, this.options.validate !== false, {
        label: ref ?? `item ${index}`,
        log: this.engine.log,
      });
    } catch (err) {
      // a load cut short by the run's end (its upload aborted) is not the document's failure
      if (this.cancelled) {
        return {
          ...base,
          documentId: null,
          status: 'aborted',
          attempts: 0,
          error: this.stopError(),
        };
      }
      return { ...base, documentId: null, status: 'failed', attempts: 0, error: errorOf(err) };
    }
    const { body, documentId } = prepared;
    let hash: string | undefined;
    if (journal) {
      hash = await contentHash(body, this.engine.sha256);
      if (await journal.has(documentId, hash)) {
        return { ...base, documentId, status: 'skipped', attempts: 0 };
      }
    }
    if (this.options.dryRun) return { ...base, documentId, status: 'valid', attempts: 0 };
    // a document without a time gets one before its first attempt: retries send the same
    const updatedAt = hasUpdatedAt(body) ? undefined : await this.stamp(documentId, hash);
    const sending =
      updatedAt === undefined ? prepared : { body: withUpdatedAt(body, updatedAt), documentId };
    const sent = await this.send(sending, slot);
    const result = { ...base, documentId: sent.documentId ?? documentId, attempts: sent.attempts };
    if (sent.error) {
      return { ...result, status: sent.aborted ? 'aborted' : 'failed', error: sent.error };
    }
    const status = await this.outcome(sent.alreadyExisted === true);
    if (journal && hash !== undefined) {
      // the acknowledgement is durable before the document counts as done
      try {
        await journal.record({
          id: documentId,
          hash,
          status,
          ccPairId,
          at: new Date().toISOString(),
          ...(fingerprint === undefined ? {} : { fingerprint }),
          ...(updatedAt === undefined ? {} : { updatedAt }),
        });
      } catch (err) {
        const error = new KisError(
          `The server stored document ${result.documentId} (${status}) but the journal could not record it: ${errorOf(err).message}. A re-run will send it again (an upsert).`,
          { cause: err },
        );
        return { ...result, status: 'failed', error };
      }
    }
    return { ...result, status };
  }

  /** The `doc_updated_at` of a document sent without one, from the journal's last (updated-at.ts). */
  private async stamp(documentId: string, hash: string | undefined): Promise<string> {
    const stampOf = this.options.journal?.stampOf;
    const last =
      stampOf === undefined || hash === undefined
        ? undefined
        : await stampOf.call(this.options.journal, documentId, hash);
    return updatedAtFor(last, new Date(), stampOf !== undefined);
  }

  /**
   * `created` or `updated` from `already_existed`, read as the server's release means it; a
   * release that cannot be read counts as the newest (said once).
   */
  private async outcome(alreadyExisted: boolean): Promise<IngestionOutcome> {
    this.release ??= this.askRelease();
    return ingestionOutcome(alreadyExisted, await this.release);
  }

  private askRelease(): Promise<string | undefined> {
    return this.engine.release().catch((err: unknown) => {
      const why = errorOf(err).message;
      this.engine.log.log(
        'warn',
        `ingestMany: the server's release could not be read (${why}); already_existed is read as current releases mean it`,
      );
      return undefined;
    });
  }

  /** The item's document, built by its loader when it has one. */
  private async load(item: IngestItem): Promise<IngestionDocumentInput> {
    if (item.load === undefined) return item.document as IngestionDocumentInput;
    return item.load({
      imageFileId: (file) => this.uploads.fileId(file),
      signal: this.registry.signal,
    });
  }

  /** Sends one document until it is stored, its failure is final, or the run stops. */
  private async send(
    prepared: PreparedIngestion,
    slot: { held: boolean },
  ): Promise<{
    attempts: number;
    documentId?: string;
    alreadyExisted?: boolean;
    error?: KisError;
    aborted?: boolean;
  }> {
    const control: CallControl = {
      registry: this.registry,
      maxRetries: 0,
      timeoutMs: this.timeoutMs,
    };
    const firstAt = Date.now();
    const pausedAtFirst = this.gate.pausedMs();
    let attempts = 0;
    for (;;) {
      if (this.cancelled || this.stopping) {
        return { attempts, error: this.stopError(), aborted: true };
      }
      if (!slot.held) {
        try {
          await this.gate.admit(this.waits);
        } catch {
          return { attempts, error: this.stopError(), aborted: true };
        }
        await this.slots.acquire(this.waits);
        if (this.cancelled || this.stopping) {
          if (!this.waits.signal.aborted) this.releaseSlot();
          return { attempts, error: this.stopError(), aborted: true };
        }
        slot.held = true;
      }
      // no await without a gate: a turn of the event loop per request is measurable at 0 ms
      const permit = this.options.requestGate === undefined ? noop : await this.permit();
      if (permit === undefined) {
        slot.held = false;
        this.releaseSlot();
        return { attempts, error: this.stopError(), aborted: true };
      }
      attempts++;
      this.onWire++;
      this.release ??= this.askRelease(); // answered while the document is on the wire
      const sentAt = performance.now();
      let outcome: ReturnType<typeof classify>;
      try {
        const answer = await this.attempt(prepared.body, prepared.documentId, control);
        this.limiter?.success(performance.now() - sentAt);
        this.gate.success();
        this.everStored = true;
        this.endAttempt(slot, permit);
        return {
          attempts,
          documentId: answer.document_id || prepared.documentId,
          alreadyExisted: answer.already_existed,
        };
      } catch (err) {
        outcome = classify(err);
        if (outcome.kind === 'retry' && outcome.load) this.limiter?.refused();
        this.endAttempt(slot, permit);
      }
      if (outcome.kind === 'aborted') {
        return {
          attempts,
          error: this.cancelled ? this.stopError() : outcome.error,
          aborted: true,
        };
      }
      if (outcome.kind === 'final') {
        this.gate.success(); // the server answered: it is up
        const stop = runStopping(outcome.error);
        if (stop !== undefined) this.stopRun('refused', stop, outcome.error);
        return { attempts, error: outcome.error };
      }
      const unreachable = this.everStored ? undefined : neverReached(outcome.error);
      if (unreachable !== undefined) {
        this.stopRun('unreachable', unreachable, outcome.error);
        return { attempts, error: this.stopError(), aborted: true };
      }
      this.gate.failure(outcome.error.message);
      if (this.gate.exhausted()) this.stopForOutage();
      const delay = retryDelayMs(attempts, outcome.serverDelayMs, BULK_DEFAULTS);
      const spent = Date.now() - firstAt - (this.gate.pausedMs() - pausedAtFirst);
      if (attempts >= this.maxAttempts || spent + delay > this.retryForMs) {
        const budget =
          attempts >= this.maxAttempts
            ? `${attempts} attempts`
            : `${attempts} attempts over ${Math.round(spent / 1000)} s (retry budget ${Math.round(this.retryForMs / 1000)} s)`;
        return {
          attempts,
          error: new KisError(`${outcome.error.message} Gave up after ${budget}.`, {
            status: outcome.error.status,
            code: outcome.error.code,
            cause: outcome.error,
          }),
        };
      }
      this.retried++;
      try {
        await sleep(delay, this.waits.signal, this.waits);
      } catch {
        return { attempts, error: this.stopError(), aborted: true };
      }
    }
  }

  /**
   * The shared limit's permission for the next request (`requestGate`): its release, a no-op
   * without a gate, or undefined when the run stopped while it waited.
   */
  private async permit(): Promise<(() => void) | undefined> {
    const gate = this.options.requestGate as RequestGate;
    let release: () => void;
    try {
      release = await gate.acquire(this.waits.signal);
    } catch (err) {
      if (this.waits.signal.aborted) return undefined;
      throw err;
    }
    if (!this.waits.signal.aborted) return release;
    release();
    return undefined;
  }

  /** A request has ended: its slot and its permission are free again. */
  private endAttempt(slot: { held: boolean }, permit: () => void): void {
    this.onWire--;
    permit();
    slot.held = false;
    this.releaseSlot();
  }

  /** One attempt, hedged when it is late (hedge.ts): the first answer wins, the other is cut. */
  private attempt(
    body: IngestionRequestInput,
    documentId: string,
    control: CallControl,
  ): Promise<IngestionResult> {
    const copies: ReturnType<typeof ownRegistry>[] = [];
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (winner: ReturnType<typeof ownRegistry>, finish: () => void) => {
        if (settled) return;
        settled = true;
        unwatch();
        for (const copy of copies) if (copy !== winner) copy.abort();
        finish();
      };
      // each copy's own answer time feeds the hedge bar: a hedge's wait must not raise it
      const send = () => {
        const copy = ownRegistry(this.registry);
        copies.push(copy);
        const sentAt = performance.now();
        const answer = this.engine.ingest(body, { ...control, registry: copy.registry });
        const report = this.reportAttempt;
        return {
          copy,
          answer: answer.then(
            (result) => {
              const ms = performance.now() - sentAt;
              this.hedger.record(ms);
              report?.({ documentId, status: 200, ms });
              return result;
            },
            (error: unknown) => {
              if (report) reportFailure(report, documentId, error, performance.now() - sentAt);
              throw error;
            },
          ),
        };
      };
      const unwatch =
        this.options.hedge === false || this.options.requestGate !== undefined
          ? () => undefined
          : this.hedger.watch((rearm) => {
              const hedge = send();
              // a failed hedge leaves the first copy to decide
              hedge.answer.then((result) => settle(hedge.copy, () => resolve(result)), rearm);
            });
      const first = send();
      first.answer.then(
        (result) => settle(first.copy, () => resolve(result)),
        (error: unknown) => settle(first.copy, () => reject(error)),
      );
    });
  }

  /** Frees a request slot: a document waiting for one, else the source, may send. */
  private releaseSlot(): void {
    this.slots.release();
    this.wake();
  }

  private stopForOutage(): void {
    const minutes = Math.round(this.gate.maxOutageMs / 6000) / 10;
    this.stopRun(
      'outage',
      `Stopped: the server has not answered successfully for more than ${minutes} min (last error: ${this.gate.reason}). Documents not yet stored were not sent; re-run with the same journal to resume.`,
    );
  }

  /**
   * Stops gracefully: no new document is read, documents waiting (to retry, for a probe turn or
   * a slot) end `aborted`, requests on the wire finish and count. `cancel` (the signal) also
   * aborts those.
   */
  stop(): void {
    if (this.stopping || this.finished) return;
    this.stopping = true;
    this.waits.abort(
      new APIUserAbortError('ingestMany was stopped before this document was stored.'),
    );
    this.wake();
  }

  private stopRun(
    reason: 'outage' | 'refused' | 'unreachable',
    message: string,
    error?: KisError,
  ): void {
    if (this.stopped) return;
    this.stopped = error === undefined ? { reason, message } : { reason, message, error };
    this.engine.log.log('error', message);
    this.cancel(new RunStopped(message));
  }

  private stopError(): KisError {
    for (const reason of [this.registry.signal.reason, this.waits.signal.reason]) {
      if (KisError.isInstance(reason)) return reason;
    }
    return new APIUserAbortError('ingestMany was cancelled before this document was stored.');
  }
}
