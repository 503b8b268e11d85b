/**
 * `verify(kis, source, options)`: the client's `verifyPair` over a folder's, a JSONL file's or a
 * journal's items (or the pair alone), with a repair: what fails is re-sent from the source as it
 * is found (repair.ts), and during a legacy model switch every document of the source is, once,
 * recorded in the pair's journal so the next verification knows the new index has them.
 */
import {
  type IngestInput,
  type IngestJournal,
  type IngestManyOptions,
  type IngestResult,
  type IngestSummary,
  isIngestItem,
  type KisClient,
  type ModelSwitchState,
  type VerifyOptions,
  type VerifyReason,
  type VerifyResult,
  type VerifyRun,
  type VerifySummary,
  verifyPair,
} from '@kis/client';
import type { SourceStateStore } from '../sources/source-state.js';
import { RepairFeed } from './feed.js';
import { bypassingJournal, repairItem } from './repair.js';

/** The journal state a re-push for a model switch is recorded under. */
export const SWITCH_REPUSH_STATE = 'kis:model-switch-repush';

/** Failures a re-send can mend: the document is stored, indexed and stamped anew. */
const REPAIRABLE: ReadonlySet<VerifyReason> = new Set<VerifyReason>([
  'missing',
  'unindexed',
  'hidden',
  'unfindable',
  'not-visible',
  'unexpectedly-visible',
]);

export interface RepairOptions
  extends Pick<
    IngestManyOptions,
    'concurrency' | 'retryForMs' | 'maxOutageMs' | 'timeoutMs' | 'signal'
  > {
  /** Hears each re-sent document's result. */
  onResult?: ((result: IngestResult) => void) | undefined;
}

export interface NodeVerifyOptions extends Omit<VerifyOptions, 'source' | 'repushed'> {
  /**
   * The pair's journal (`kis ingest` keeps it): a repair records what it re-sends in it, and a
   * re-push for a model switch is recorded there for the next verification.
   */
  journal?:
    | (IngestJournal & Partial<Pick<SourceStateStore, 'stateOf' | 'recordState'>>)
    | undefined;
  /** Re-send what fails from the source, and the whole source during a legacy model switch. */
  repair?: boolean | RepairOptions | undefined;
}

export interface RepairSummary {
  /** `failures`: what failed was re-sent; `model-switch`: every document of the source was. */
  scope: 'failures' | 'model-switch';
  /** Failing documents that could not be re-sent (no content: a journal's or the listing's). */
  notResendable: number;
  /** What the re-send answered. */
  ingest: IngestSummary;
  /** Set when the re-push for a model switch was recorded in the journal. */
  recordedFor: string | undefined;
}

export interface NodeVerifySummary extends VerifySummary {
  /** The repair, when one was asked for and needed. */
  repair: RepairSummary | undefined;
}

export interface NodeVerifyRun extends Omit<VerifyRun, 'summary' | 'done'> {
  readonly summary: Promise<NodeVerifySummary>;
  done(): Promise<NodeVerifySummary>;
}

/** A re-push recorded for a model switch, as the journal holds it. */
async function repushedOf(
  journal: NodeVerifyOptions['journal'],
): Promise<VerifyOptions['repushed']> {
  const value = (await journal?.stateOf?.(SWITCH_REPUSH_STATE)) as
    | { indexName?: unknown; at?: unknown }
    | undefined;
  return typeof value?.indexName === 'string' && typeof value.at === 'string'
    ? { indexName: value.indexName, at: value.at }
    : undefined;
}

/** True when the item carries what a re-send needs: a document, or a way to build one. */
function resendable(item: IngestInput | undefined): item is IngestInput {
  if (item === undefined) return false;
  return !isIngestItem(item)
    ? !('id' in item && !('semantic_identifier' in item))
    : item.document !== undefined || item.load !== undefined;
}

/** The verification with its repair running beside it. */
class RepairingRun implements NodeVerifyRun {
  readonly summary: Promise<NodeVerifySummary>;
  readonly modelSwitch: Promise<ModelSwitchState | null>;
  #read = false;
  #settle!: { resolve(s: NodeVerifySummary): void; reject(e: unknown): void };

  constructor(
    private readonly kis: KisClient,
    private readonly run: VerifyRun,
    private readonly options: NodeVerifyOptions,
    private readonly sampled: boolean,
  ) {
    this.modelSwitch = run.modelSwitch;
    this.summary = new Promise((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    this.summary.catch(() => undefined);
  }

  progress() {
    return this.run.progress();
  }

  stop(): void {
    this.run.stop();
  }

  [Symbol.asyncIterator](): AsyncIterator<VerifyResult> {
    if (this.#read) throw new TypeError('a verification run can be read once');
    this.#read = true;
    return this.#results();
  }

  async done(): Promise<NodeVerifySummary> {
    if (!this.#read) for await (const _ of this);
    return this.summary;
  }

  async *#results(): AsyncGenerator<VerifyResult, void, undefined> {
    const { options } = this;
    const how = typeof options.repair === 'object' ? options.repair : {};
    const feed = new RepairFeed();
    const journal = options.journal;
    let all = false;
    let notResendable = 0;
    const repairRun = this.kis.ingestMany(feed, {
      ccPairId: options.ccPairId,
      ...(journal ? { journal: bypassingJournal(journal) } : {}),
      ...(how.concurrency === undefined ? {} : { concurrency: how.concurrency }),
      ...(how.retryForMs === undefined ? {} : { retryForMs: how.retryForMs }),
      ...(how.maxOutageMs === undefined ? {} : { maxOutageMs: how.maxOutageMs }),
      ...(how.timeoutMs === undefined ? {} : { timeoutMs: how.timeoutMs }),
      ...(how.signal === undefined ? {} : { signal: how.signal }),
      ...(how.onResult === undefined ? {} : { onResult: how.onResult }),
    });
    const repaired = repairRun.done();
    repaired.catch(() => undefined);
    let switched: ModelSwitchState | null = null;
    try {
      let first = true;
      for await (const result of this.run) {
        if (first) {
          switched = await this.run.modelSwitch;
          // a sample cannot re-push the whole pair: said in the summary
          all = switched?.needsRepush === true && !this.sampled;
          first = false;
        }
        const wanted = all || result.reasons.some((r) => REPAIRABLE.has(r));
        if (wanted && resendable(result.item)) await feed.push(repairItem(result.item));
        else if (wanted && !result.ok) notResendable++;
        yield result;
      }
    } catch (error) {
      feed.close();
      await repaired.catch(() => undefined);
      this.#settle.reject(error);
      throw error;
    } finally {
      // also when the reader leaves the loop: the re-sends in flight end, nothing more is fed
      feed.close();
    }
    const summary = await this.run.summary;
    const ingest = await repaired;
    let recordedFor: string | undefined;
    let modelSwitch = summary.modelSwitch;
    if (all && switched !== null && ingest.failed === 0 && ingest.stopped === undefined) {
      recordedFor = switched.indexName;
      const at = new Date().toISOString();
      await journal?.recordState?.(SWITCH_REPUSH_STATE, { v: 1, indexName: recordedFor, at });
      // the new index now has the source's documents: the switch needs no re-push any more
      modelSwitch = { ...switched, needsRepush: false, repushedAt: at };
    }
    const needed = feed.pushed > 0 || notResendable > 0 || all;
    this.#settle.resolve({
      ...summary,
      modelSwitch,
      ok:
        summary.ok ||
        (modelSwitch?.needsRepush === false && Object.keys(summary.failures).length === 0),
      repair: needed
        ? { scope: all ? 'model-switch' : 'failures', notResendable, ingest, recordedFor }
        : undefined,
    });
  }
}

/**
 * Verifies pair `options.ccPairId` against `source` (documents or `ingestMany` items: a folder's,
 * a JSONL file's, `journalItems`), or the pair's own listing without one. With `repair`, what
 * fails is re-sent from the source while the verification goes on, and during a legacy model
 * switch the whole source is, then recorded in `journal`.
 */
export async function verify(
  kis: KisClient,
  source: Iterable<IngestInput> | AsyncIterable<IngestInput> | undefined,
  options: NodeVerifyOptions,
): Promise<NodeVerifyRun> {
  const { journal, repair, ...rest } = options;
  if (repair && source === undefined) {
    throw new TypeError('verify: repair re-sends from the source; give the source to repair from');
  }
  const repushed = await repushedOf(journal);
  const run = await verifyPair(kis, {
    ...rest,
    ...(source === undefined ? {} : { source }),
    ...(repushed === undefined ? {} : { repushed }),
  });
  if (!repair) {
    const summary = run.summary.then((s) => ({ ...s, repair: undefined }));
    summary.catch(() => undefined); // thrown to whoever reads the results too
    return {
      modelSwitch: run.modelSwitch,
      progress: () => run.progress(),
      stop: () => run.stop(),
      [Symbol.asyncIterator]: () => run[Symbol.asyncIterator](),
      summary,
      done: async () => ({ ...(await run.done()), repair: undefined }),
    };
  }
  return new RepairingRun(kis, run, options, options.sample !== undefined);
}
