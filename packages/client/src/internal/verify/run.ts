/**
 * A verification run (`verifyPair`): set-up (setup.ts), then the documents, from a source or the
 * pair's listing, optionally a seeded sample of them, checked a few at a time (pool.ts,
 * document-checks.ts); results come out as they finish and only counts and capped failing ids
 * are kept (tally.ts), so memory stays flat over 100,000 documents.
 */
import type { IngestInput } from '../../ingest.js';
import type { KisClient } from '../../kis-client.js';
import type {
  ModelSwitchState,
  VerifyCheck,
  VerifyOptions,
  VerifyProgress,
  VerifyResult,
  VerifyRun,
  VerifySummary,
} from '../../verify-types.js';
import { checkDocument, FatalCheck, type SkipReason } from './document-checks.js';
import type { EngineParts } from './parts.js';
import { inSlots } from './pool.js';
import { newSeed, reservoir, seededRandom } from './sample.js';
import { type Setup, setUp } from './setup.js';
import { Tally } from './tally.js';
import { listedTarget, sourceTarget, type Target, unreadableTarget } from './targets.js';

const DEFAULT_CONCURRENCY = 16;
const DEFAULT_MAX_IDS = 1000;

function positiveInt(name: string, value: unknown, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new TypeError(`verifyPair: ${name} must be an integer from 1 to ${max}`);
  }
  return value;
}

/** The checks asked for, validated. */
function checksOf(options: VerifyOptions, all: readonly VerifyCheck[]): Set<VerifyCheck> {
  const asked = options.checks ?? all.filter((c) => c !== 'visible' || options.as);
  const checks = new Set<VerifyCheck>();
  for (const check of asked) {
    if (!all.includes(check)) {
      throw new TypeError(`verifyPair: unknown check "${String(check)}" (${all.join(', ')})`);
    }
    checks.add(check);
  }
  if (checks.size === 0) throw new TypeError('verifyPair: checks must name at least one check');
  if (checks.has('visible') && options.as === undefined) {
    throw new TypeError('verifyPair: the visible check needs `as`, the client of the key to check');
  }
  return checks;
}

/** What each reason to skip a check says in the summary. */
const SKIP_NOTES: Record<SkipReason, (n: number) => string> = {
  'not-visible-to-key': (n) =>
    `${n} document(s) are not visible to this key (their pairs grant it no access): whether they are indexed and findable was not checked; verify them with a key their pairs grant`,
  'as-unknown': (n) =>
    `whether the other key should see ${n} document(s) is unknown: visible was not checked for them`,
  'other-pair': (n) => `${n} item(s) name another pair than the one verified: not checked`,
  'no-query': (n) =>
    `${n} document(s) have no title or text worth searching for: findable was not checked`,
};

async function* targetsOf(
  parts: EngineParts,
  options: VerifyOptions,
  setup: Setup,
): AsyncGenerator<Target, void, undefined> {
  const { source, ccPairId } = options;
  if (source === undefined) {
    for (const entry of setup.listing ?? []) yield listedTarget(entry);
    return;
  }
  for await (const input of source as AsyncIterable<IngestInput>) {
    try {
      yield sourceTarget(parts, input, ccPairId);
    } catch (error) {
      // an id the rule book refuses: the check reports the item unreadable
      yield unreadableTarget(input, error);
    }
  }
}

class Verification implements VerifyRun {
  readonly summary: Promise<VerifySummary>;
  readonly modelSwitch: Promise<ModelSwitchState | null>;
  #settle!: { resolve(s: VerifySummary): void; reject(e: unknown): void };
  #setUp!: { resolve(s: ModelSwitchState | null): void; reject(e: unknown): void };
  #read = false;
  #stopped: string | undefined;
  readonly #started = Date.now();
  readonly #tally: Tally;
  readonly #checks: Set<VerifyCheck>;
  readonly #concurrency: number;
  #total: number | undefined;

  constructor(
    private readonly kis: KisClient,
    private readonly options: VerifyOptions,
    private readonly parts: EngineParts,
  ) {
    this.#checks = checksOf(options, parts.checks);
    this.#concurrency = positiveInt('concurrency', options.concurrency ?? DEFAULT_CONCURRENCY, 256);
    this.#tally = new Tally(
      parts.checks,
      positiveInt('maxIdsPerReason', options.maxIdsPerReason ?? DEFAULT_MAX_IDS),
    );
    if (options.sample !== undefined) positiveInt('sample', options.sample);
    this.summary = new Promise((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    this.modelSwitch = new Promise((resolve, reject) => {
      this.#setUp = { resolve, reject };
    });
    // a rejection is also thrown to whoever reads the results
    this.summary.catch(() => undefined);
    this.modelSwitch.catch(() => undefined);
    options.signal?.addEventListener('abort', () => this.stop(), { once: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<VerifyResult> {
    if (this.#read) throw new TypeError('a verification run can be read once');
    this.#read = true;
    return this.#results();
  }

  async done(): Promise<VerifySummary> {
    if (!this.#read) for await (const _ of this);
    return this.summary;
  }

  progress(): VerifyProgress {
    const elapsed = Math.max(1, Date.now() - this.#started);
    return {
      done: this.#tally.checked,
      failed: this.#tally.failed,
      total: this.#total,
      ratePerSec: (this.#tally.checked * 1000) / elapsed,
    };
  }

  stop(): void {
    this.#stopped ??= 'stopped before every document was checked';
  }

  async *#results(): AsyncGenerator<VerifyResult, void, undefined> {
    let finished = false;
    try {
      const setup = await setUp(this.kis, this.options, this.#checks);
      this.#setUp.resolve(setup.modelSwitch);
      const summary = yield* this.#check(setup);
      finished = true;
      this.#settle.resolve(summary);
    } catch (error) {
      finished = true;
      this.#setUp.reject(error);
      this.#settle.reject(error);
      throw error;
    } finally {
      if (!finished) {
        // the reader left the loop: the checks in flight are dropped, the summary says so
        this.stop();
        const left = new Error('verification left before its end');
        this.#setUp.reject(left);
        this.#settle.reject(left);
      }
    }
  }

  async *#check(setup: Setup): AsyncGenerator<VerifyResult, VerifySummary, undefined> {
    const { options } = this;
    const skips = new Map<SkipReason, number>();
    const ctx = {
      kis: this.kis,
      as: options.as,
      ccPairId: options.ccPairId,
      checks: this.#checks,
      listed: setup.listed,
      key: setup.key,
      asAudience: setup.asAudience,
      keySearches: setup.keySearches,
      asSearches: setup.asSearches,
      signal: options.signal,
      skipped: (reason: SkipReason) => skips.set(reason, (skips.get(reason) ?? 0) + 1),
    };
    let targets: AsyncIterator<Target> = targetsOf(this.parts, options, setup);
    let total: number | undefined;
    let seed: number | undefined;
    if (options.sample !== undefined) {
      seed = options.seed ?? newSeed();
      const drawn = await reservoir(
        { [Symbol.asyncIterator]: () => targets },
        options.sample,
        seededRandom(seed),
      );
      total = drawn.population;
      this.#total = drawn.sample.length;
      targets = (async function* () {
        yield* drawn.sample;
      })();
    } else if (options.source === undefined) {
      total = setup.listing?.count ?? 0;
      this.#total = total;
    } else {
      Promise.resolve(options.total).then(
        (n) => {
          if (typeof n === 'number') this.#total ??= n;
        },
        () => undefined,
      );
    }
    let fatal: FatalCheck | undefined;
    // a controller per slot, aborted by the run's signal: a listener per call on the caller's
    // signal would pile up (and warn) with 16 documents at once
    const aborts: (AbortController | undefined)[] = new Array(this.#concurrency);
    options.signal?.addEventListener(
      'abort',
      () => {
        for (const controller of aborts) controller?.abort(options.signal?.reason);
      },
      { once: true },
    );
    const work = async (target: Target, slot: number): Promise<VerifyResult | FatalCheck> => {
      const controller = new AbortController();
      if (options.signal?.aborted) controller.abort(options.signal.reason);
      aborts[slot] = controller;
      try {
        return await checkDocument({ ...ctx, signal: controller.signal }, target);
      } catch (error) {
        return error instanceof FatalCheck ? error : new FatalCheck(error);
      }
    };
    const stopped = () => fatal !== undefined || this.#stopped !== undefined;
    for await (const result of inSlots(targets, this.#concurrency, work, stopped)) {
      if (result instanceof FatalCheck) {
        fatal ??= result;
        continue;
      }
      this.#tally.add(result);
      options.onProgress?.(this.progress());
      yield result;
    }
    if (fatal !== undefined) throw fatal.error;
    const counted = total ?? this.#total ?? this.#tally.checked;
    const { listed } = setup;
    const extra =
      typeof listed === 'object' && seed === undefined && this.#stopped === undefined
        ? listed.size - listed.marked
        : undefined;
    const notes = [...setup.notes];
    for (const [reason, n] of skips) notes.push(SKIP_NOTES[reason](n));
    const elapsedMs = Date.now() - this.#started;
    const counts = this.#tally.counts();
    return {
      ccPairId: options.ccPairId,
      total: counted,
      ...counts,
      sampleSeed: seed,
      ok: this.#tally.failed === 0 && setup.modelSwitch?.needsRepush !== true,
      extra,
      modelSwitch: setup.modelSwitch,
      notes,
      elapsedMs,
      ratePerSec: (counts.checked * 1000) / Math.max(1, elapsedMs),
      stopped: this.#stopped,
    };
  }
}

export function startVerify(kis: KisClient, options: VerifyOptions, parts: EngineParts): VerifyRun {
  const id = options?.ccPairId;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) {
    throw new TypeError('verifyPair: options.ccPairId must be a pair id (an integer ≥ 0)');
  }
  return new Verification(kis, options, parts);
}
