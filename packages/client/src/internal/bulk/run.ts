/**
 * One bulk ingestion run (`kis.ingestMany`), the public `IngestRun`: it composes the parts (the
 * pull loop, each document's flow, the sender, the result queue; README.md beside this file) and
 * answers for them: iteration, `done()`, `summary`, `progress()`, `stop()`, cancellation.
 */
import type {
  IngestInput,
  IngestManyOptions,
  IngestProgress,
  IngestResult,
  IngestRun,
  IngestSummary,
} from '../../ingest.js';
import type { LevelLogger } from '../../logging.js';
import type { CallContext } from '../call.js';
import { uploadImage } from '../resources/files.js';
import { RunCounters } from './counters.js';
import { DocumentFlow } from './document-flow.js';
import { Hedger } from './hedge.js';
import { guarded } from './hooks.js';
import { OutageGate } from './outage.js';
import { PullLoop } from './pull-loop.js';
import { ResultQueue } from './result-queue.js';
import { RunControl } from './run-control.js';
import { RunLimit } from './run-limit.js';
import { RunRelease } from './run-release.js';
import { DocumentSender } from './sender.js';
import { Slots } from './slots.js';
import { RunUploads } from './uploads.js';

export class BulkRun implements IngestRun {
  private mode: 'idle' | 'iterate' | 'drain' = 'idle';
  private startedAt = 0;
  private finished = false;
  private readonly control: RunControl;
  private readonly counters = new RunCounters();
  private readonly limit: RunLimit;
  private readonly slots: Slots;
  private readonly gate: OutageGate;
  private readonly hedger = new Hedger();
  private readonly loop: PullLoop;
  private results: ResultQueue | undefined;
  private readonly onProgress: ((progress: IngestProgress) => void) | undefined;
  private readonly summaryPromise: Promise<IngestSummary>;
  private resolveSummary!: (s: IngestSummary) => void;
  private rejectSummary!: (e: unknown) => void;

  constructor(
    ctx: CallContext,
    private readonly source: Iterable<IngestInput> | AsyncIterable<IngestInput>,
    options: IngestManyOptions,
  ) {
    const control = new RunControl(ctx.log);
    this.control = control;
    const limit = new RunLimit(options);
    this.limit = limit;
    this.slots = new Slots(() => limit.current());
    this.gate = this.outageGate(ctx.log, options.maxOutageMs);
    this.onProgress = guarded(ctx.log, 'onProgress', options.onProgress);
    const { counters, slots, gate, hedger } = this;
    const release = new RunRelease(ctx);
    const sender = new DocumentSender(
      ctx,
      { control, counters, limit, slots, gate, hedger, release },
      options,
    );
    // the run's abort registry, as for ingestion: no listener per upload on the run's signal
    const uploads = new RunUploads(
      async (file) => (await uploadImage(ctx, file, { registry: control.registry })).fileId,
      options.journal,
      options.dryRun === true,
    );
    const flow = new DocumentFlow(ctx, control, sender, uploads, release, options);
    const reportProgress = () => this.reportProgress();
    const parts = { control, counters, slots, gate, flow, reportProgress };
    this.loop = new PullLoop(parts, options, Math.max(256, limit.ceiling * 4), ctx.log);
    control.wake = () => this.loop.wake();
    this.summaryPromise = new Promise((resolve, reject) => {
      this.resolveSummary = resolve;
      this.rejectSummary = reject;
    });
    // an unobserved rejection must not crash the process; callers see it via done()/iteration
    this.summaryPromise.catch(() => undefined);
    const signal = options.signal;
    if (signal) {
      if (signal.aborted) control.cancel();
      else signal.addEventListener('abort', () => control.cancel(), { once: true });
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
    const c = this.counters;
    const elapsed = this.startedAt ? Date.now() - this.startedAt : 0;
    return {
      done: c.done,
      created: c.created,
      updated: c.updated,
      failed: c.failed,
      skipped: c.skipped,
      aborted: c.aborted,
      inFlight: c.onWire,
      waiting: Math.max(0, c.active - this.slots.inUse),
      concurrency: this.limit.current(),
      ratePerSec: elapsed > 0 ? (c.acked * 1000) / elapsed : 0,
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
    const results = new ResultQueue(() => this.loop.wake());
    this.results = results;
    this.start('iterate');
    return {
      next: () => results.next(),
      return: async () => {
        if (!this.finished) this.control.cancel();
        return { done: true, value: undefined };
      },
    };
  }

  /**
   * Stops gracefully: no new document is read, documents waiting (to retry, for a probe turn or
   * a slot) end `aborted`, requests on the wire finish and count. `cancel` (the signal) also
   * aborts those.
   */
  stop(): void {
    if (!this.finished) this.control.stop();
  }

  /** Pauses through outages: said in the log and the progress, and the loop woken. */
  private outageGate(log: LevelLogger, maxOutageMs: number | undefined): OutageGate {
    return new OutageGate({
      maxOutageMs,
      onChange: (paused, info) => {
        log.log(
          paused ? 'warn' : 'info',
          paused
            ? `the server is not answering (${info.reason}); pausing and probing until it is back`
            : `the server is back after ${Math.round((Date.now() - info.since) / 1000)} s; resuming`,
        );
        this.reportProgress();
        this.control.wake();
      },
    });
  }

  private reportProgress(): void {
    this.onProgress?.(this.progress());
  }

  private start(mode: 'iterate' | 'drain'): void {
    this.mode = mode;
    this.startedAt = Date.now();
    this.loop.run(this.source, this.results).then(
      () => this.finish(undefined),
      (err) => this.finish(err ?? new Error('ingestMany: the input source failed')),
    );
  }

  private finish(err: unknown): void {
    this.finished = true;
    this.hedger.stop();
    this.results?.end(err);
    if (err !== undefined) this.rejectSummary(err);
    else this.resolveSummary(this.makeSummary());
  }

  private makeSummary(): IngestSummary {
    const c = this.counters;
    const elapsedMs = Date.now() - this.startedAt;
    return {
      total: c.done,
      created: c.created,
      updated: c.updated,
      failed: c.failed,
      skipped: c.skipped,
      aborted: c.aborted,
      valid: c.valid,
      retried: c.retried,
      hedged: this.hedger.sent,
      elapsedMs,
      ratePerSec: elapsedMs > 0 ? (c.acked * 1000) / elapsedMs : c.acked,
      cancelled: this.control.cancelled && this.control.stopped === undefined,
      concurrency: this.limit.summary(),
      pausedMs: this.gate.pausedMs(),
      stopped: this.control.stopped,
    };
  }
}
