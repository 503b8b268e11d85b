/**
 * A worker's bulk engine: one `kis.ingestMany` run at a time, fed by the worker's jobs (feed.ts).
 * A run that stops by itself is replaced: after `unreachable` (no server yet) a new run starts a
 * few seconds later and the jobs send their documents again; `refused` (the key, its role, a base
 * URL that is not the API) and `outage` (longer than `maxOutageMs`) stop the worker, since no
 * document could be stored.
 */
import type {
  IngestManyOptions,
  IngestResult,
  IngestRun,
  IngestSummary,
  KisClient,
} from '@kis/client';
import { EngineFeed } from './feed.js';

/** Wait before a new run after `unreachable`. */
const RESTART_MS = 5_000;

export type EngineStop = NonNullable<IngestSummary['stopped']>;

export class WorkerEngine {
  private feed: EngineFeed | undefined;
  private run: IngestRun | undefined;
  private ready: Promise<void> = Promise.resolve();
  private closing = false;
  /** Summaries of the runs so far. */
  readonly summaries: IngestSummary[] = [];
  /** Set when the engine stopped for good. */
  fatal: EngineStop | undefined;

  constructor(
    private readonly kis: KisClient,
    private readonly options: IngestManyOptions,
    private readonly hooks: {
      onResult?: ((result: IngestResult) => void) | undefined;
      onFatal: (stop: EngineStop) => void;
      onRestart: (stop: EngineStop) => void;
    },
  ) {
    this.start();
  }

  /** Sends one document through the current run; `aborted` when the run ended first. */
  async send(item: Parameters<EngineFeed['send']>[0]): Promise<IngestResult> {
    await this.ready;
    const feed = this.feed as EngineFeed;
    return feed.send(item);
  }

  /** The current run's counts. */
  progress(): ReturnType<IngestRun['progress']> | undefined {
    return this.run?.progress();
  }

  /** Stops gracefully: waiting documents end `aborted`, requests on the wire finish. */
  stop(): void {
    this.closing = true;
    this.run?.stop();
  }

  /** Ends the run once the jobs are done with it; resolves with the summaries. */
  async close(): Promise<IngestSummary[]> {
    this.closing = true;
    this.feed?.end();
    await this.run?.done().catch(() => undefined);
    return this.summaries;
  }

  private start(): void {
    const feed = new EngineFeed();
    this.feed = feed;
    const onResult = (result: IngestResult) => {
      feed.onResult(result);
      this.hooks.onResult?.(result);
    };
    const run = this.kis.ingestMany(feed, { ...this.options, onResult });
    this.run = run;
    run.done().then(
      (summary) => this.ended(feed, summary),
      () => this.ended(feed, undefined),
    );
  }

  private ended(feed: EngineFeed, summary: IngestSummary | undefined): void {
    feed.end();
    if (summary) this.summaries.push(summary);
    if (this.closing) return;
    const stop: EngineStop = summary?.stopped ?? {
      reason: 'unreachable',
      message: 'the bulk engine ended unexpectedly',
    };
    if (stop.reason === 'refused' || stop.reason === 'outage') {
      this.fatal = stop;
      this.closing = true;
      this.hooks.onFatal(stop);
      return;
    }
    this.hooks.onRestart(stop);
    this.ready = new Promise((done) => {
      const timer = setTimeout(() => {
        if (!this.closing) this.start();
        done();
      }, RESTART_MS);
      timer.unref?.();
    });
  }
}
