/**
 * A run's pull loop: take room (the in-progress bound, the unread results' bound, the outage
 * gate, a request slot), pull the source's next item, launch it (a fingerprint skip answered at
 * once, else the document's flow), complete it (counts, result, progress, wake).
 */
import type { IngestInput, IngestManyOptions, IngestResult } from '../../ingest.js';
import { type FingerprintMatcher, fingerprintMatcher } from '../../journal.js';
import type { LevelLogger } from '../../logging.js';
import type { RunCounters } from './counters.js';
import type { DocumentFlow } from './document-flow.js';
import { errorOf } from './error-of.js';
import { recordedFingerprint, skippedByFingerprint } from './fingerprint-skip.js';
import { guarded } from './hooks.js';
import type { OutageGate } from './outage.js';
import type { ResultQueue } from './result-queue.js';
import type { RunControl } from './run-control.js';
import type { SlotHold, Slots } from './slots.js';
import { isItem, type Pull, puller } from './source.js';

/** What the loop shares with the rest of its run. */
export interface LoopParts {
  control: RunControl;
  counters: RunCounters;
  slots: Slots;
  gate: OutageGate;
  flow: DocumentFlow;
  /** Tells the caller's `onProgress` (after every result). */
  reportProgress: () => void;
}

export class PullLoop {
  private readonly control: RunControl;
  private readonly counters: RunCounters;
  private readonly slots: Slots;
  private readonly gate: OutageGate;
  private readonly flow: DocumentFlow;
  private readonly reportProgress: () => void;
  private readonly onResult: ((result: IngestResult) => void) | undefined;
  /** The journal's fingerprint check (undefined: no journal, or one that keeps none). */
  private readonly fingerprints: FingerprintMatcher | undefined;
  /** Documents in progress (sending, or waiting to retry): bounded, so memory stays flat. */
  private readonly maxActive: number;
  /** Undefined when the run is drained with `done()`: results are only counted. */
  private results: ResultQueue | undefined;
  private wakeLoop: (() => void) | undefined;
  /** Ends the wait for the source's next document when the run stops (see pullOrStop). */
  private wakePull: (() => void) | undefined;
  private sourceDone = false;
  private sourceError: unknown;

  constructor(parts: LoopParts, options: IngestManyOptions, maxActive: number, log: LevelLogger) {
    this.control = parts.control;
    this.counters = parts.counters;
    this.slots = parts.slots;
    this.gate = parts.gate;
    this.flow = parts.flow;
    this.reportProgress = parts.reportProgress;
    this.onResult = guarded(log, 'onResult', options.onResult);
    this.fingerprints = fingerprintMatcher(options.journal);
    this.maxActive = maxActive;
  }

  /** Something changed that may let the loop go on: a slot, a result read, the run's end. */
  wake(): void {
    this.wakePull?.();
    const wake = this.wakeLoop;
    if (wake) {
      this.wakeLoop = undefined;
      wake();
    }
  }

  /** Pulls and launches until the source ends or the run stops; then waits for the documents. */
  async run(source: Iterable<IngestInput> | AsyncIterable<IngestInput>, results?: ResultQueue) {
    this.results = results;
    const { pull, close } = puller(source);
    try {
      await this.pullAll(pull);
    } finally {
      if (!this.sourceDone) close();
    }
    while (this.counters.active > 0) await this.nextWake();
    if (this.sourceError !== undefined) throw this.sourceError;
  }

  private async pullAll(pull: Pull): Promise<void> {
    const control = this.control;
    let index = 0;
    for (;;) {
      while (!control.halted && !this.takeRoom()) await this.nextWake();
      if (control.halted) return;
      let next: IteratorResult<IngestInput> | undefined;
      try {
        const n = pull();
        next = n instanceof Promise ? await this.pullOrStop(n) : n;
      } catch (err) {
        this.releaseSlot();
        this.sourceError = err;
        this.sourceDone = true;
        return;
      }
      if (next === undefined || next.done) {
        // undefined: stopped while an asynchronous source had no document yet (closed by run)
        this.releaseSlot();
        this.sourceDone = next !== undefined;
        return;
      }
      this.launch(next.value, index++);
    }
  }

  private nextWake(): Promise<void> {
    return new Promise((resolve) => {
      this.wakeLoop = resolve;
    });
  }

  /**
   * Room for one more document: below the in-progress bound and, in a loop, the unread results'
   * bound; then the document's first request slot is taken here (`tryAcquire` fails while
   * retried documents wait for one), so the source is read only as requests can go out.
   */
  private takeRoom(): boolean {
    return (
      this.counters.active < this.maxActive &&
      !this.gate.paused &&
      (this.results === undefined || this.results.unread < this.maxActive) &&
      this.slots.tryAcquire()
    );
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
        if (this.control.halted) resolve(undefined);
      };
      this.wakePull = wakePull;
      pending.then(resolve, reject).finally(() => {
        // the next read may have begun already: leave its own
        if (this.wakePull === wakePull) this.wakePull = undefined;
      });
    });
  }

  /**
   * Starts a document, holding the request slot taken for its first attempt. One the journal
   * knows unchanged by its fingerprint, answered at once, is done here: a resumed run skips its
   * acknowledged part without a promise per document.
   */
  private launch(input: IngestInput, index: number): void {
    this.counters.active++;
    const item = isItem(input) ? input : undefined;
    const fingerprint = recordedFingerprint(item, this.flow.pairOf(item));
    const known = skippedByFingerprint(this.fingerprints, item, fingerprint);
    if (typeof known === 'string') {
      this.releaseSlot();
      this.complete(this.flow.skipped(input, index, known));
      return;
    }
    const slot: SlotHold = { held: true };
    this.flow
      .run(input, index, slot, known, fingerprint)
      .finally(() => {
        if (slot.held) this.releaseSlot();
      })
      .then(
        (result) => this.complete(result),
        (err) => this.complete(crashed(index, err)),
      );
  }

  private complete(result: IngestResult): void {
    this.counters.active--;
    this.counters.count(result.status);
    this.results?.push(result);
    this.onResult?.(result);
    this.reportProgress();
    this.wake();
  }

  /** Frees a request slot: a document waiting for one, else the source, may send. */
  private releaseSlot(): void {
    this.slots.release();
    this.wake();
  }
}

/** The result of a document whose flow threw (a fault of the run's own, never expected). */
function crashed(index: number, err: unknown): IngestResult {
  const error = errorOf(err);
  return {
    index,
    ref: undefined,
    documentId: null,
    ccPairId: null,
    status: 'failed',
    attempts: 0,
    error,
  };
}
