/**
 * Sends one document until it is stored, its failure is final, or the run stops (README, "Bulk
 * ingestion: retries and outages"). Each attempt waits for the outage gate and a request slot
 * (the pull loop took the first one), asks the shared request gate, goes out hedged
 * (attempt.ts), and a failure is retried after retry-policy.ts's wait, within the budget.
 */
import { KisError } from '../../errors.js';
import type { IngestManyOptions, RequestGate } from '../../ingest.js';
import type { CallControl } from '../../request-options.js';
import { sleep } from '../backoff.js';
import type { CallContext } from '../call.js';
import { HedgedAttempt } from './attempt.js';
import type { RunCounters } from './counters.js';
import type { Hedger } from './hedge.js';
import { guarded } from './hooks.js';
import type { OutageGate } from './outage.js';
import type { PreparedIngestion } from './prepare.js';
import { neverReached, runStopping } from './refusals.js';
import { BULK_DEFAULTS, classify, type Outcome, retryDelayMs } from './retry-policy.js';
import type { RunControl } from './run-control.js';
import type { RunLimit } from './run-limit.js';
import type { RunRelease } from './run-release.js';
import type { SlotHold, Slots } from './slots.js';

/** How sending a document ended. */
export interface Sent {
  attempts: number;
  documentId?: string;
  alreadyExisted?: boolean;
  error?: KisError;
  /** Not stored because the run stopped or was cancelled (not the document's failure). */
  aborted?: boolean;
}

/** What the sender shares with the rest of its run. */
export interface SenderParts {
  control: RunControl;
  counters: RunCounters;
  limit: RunLimit;
  slots: Slots;
  gate: OutageGate;
  hedger: Hedger;
  release: RunRelease;
}

const noop = (): void => undefined;

export class DocumentSender {
  private readonly control: RunControl;
  private readonly counters: RunCounters;
  private readonly limit: RunLimit;
  private readonly slots: Slots;
  private readonly gate: OutageGate;
  private readonly attempt: HedgedAttempt;
  private readonly release: RunRelease;
  private readonly requestGate: RequestGate | undefined;
  private readonly timeoutMs: number;
  private readonly retryForMs: number;
  private readonly maxAttempts: number;
  /** Once a document was stored, a refused connection is an outage, not a wrong address. */
  private everStored = false;

  constructor(ctx: CallContext, parts: SenderParts, options: IngestManyOptions) {
    this.control = parts.control;
    this.counters = parts.counters;
    this.limit = parts.limit;
    this.slots = parts.slots;
    this.gate = parts.gate;
    this.release = parts.release;
    this.requestGate = options.requestGate;
    this.timeoutMs = options.timeoutMs ?? ctx.timeoutMs;
    this.retryForMs = options.retryForMs ?? BULK_DEFAULTS.retryForMs;
    this.maxAttempts =
      options.maxRetries === undefined ? Number.POSITIVE_INFINITY : options.maxRetries + 1;
    const hedged = options.hedge !== false && options.requestGate === undefined;
    const report = guarded(ctx.log, 'onAttempt', options.onAttempt);
    this.attempt = new HedgedAttempt(ctx, this.control.registry, parts.hedger, hedged, report);
  }

  /** Sends until stored, final or stopped; `slot` says whether a request slot is held. */
  async send(prepared: PreparedIngestion, slot: SlotHold): Promise<Sent> {
    const run = this.control;
    const control: CallControl = {
      registry: run.registry,
      maxRetries: 0,
      timeoutMs: this.timeoutMs,
    };
    const firstAt = Date.now();
    const pausedAtFirst = this.gate.pausedMs();
    let attempts = 0;
    for (;;) {
      if (run.halted) return this.abort(attempts);
      if (!slot.held) {
        try {
          await this.gate.admit(run.waits);
        } catch {
          return this.abort(attempts);
        }
        await this.slots.acquire(run.waits);
        if (run.halted) {
          if (!run.waits.signal.aborted) this.releaseSlot();
          return this.abort(attempts);
        }
        slot.held = true;
      }
      // no await without a gate: a turn of the event loop per request is measurable at 0 ms
      const permit = this.requestGate === undefined ? noop : await this.permit(this.requestGate);
      if (permit === undefined) {
        slot.held = false;
        this.releaseSlot();
        return this.abort(attempts);
      }
      attempts++;
      this.counters.onWire++;
      this.release.ask(); // answered while the document is on the wire
      const sentAt = performance.now();
      let outcome: Outcome;
      try {
        const answer = await this.attempt.send(prepared.body, prepared.documentId, control);
        this.answered(performance.now() - sentAt, slot, permit);
        const documentId = answer.document_id || prepared.documentId;
        return { attempts, documentId, alreadyExisted: answer.already_existed };
      } catch (err) {
        outcome = classify(err);
        if (outcome.kind === 'retry' && outcome.load) this.limit.refused();
        this.endAttempt(slot, permit);
      }
      const next = this.afterFailure(outcome, attempts, firstAt, pausedAtFirst);
      if (typeof next !== 'number') return next;
      this.counters.retried++;
      try {
        await sleep(next, run.waits.signal, run.waits);
      } catch {
        return this.abort(attempts);
      }
    }
  }

  /** After a failed attempt: how sending ends, or the wait before the next attempt. */
  private afterFailure(
    outcome: Outcome,
    attempts: number,
    firstAt: number,
    pausedAtFirst: number,
  ): Sent | number {
    const run = this.control;
    if (outcome.kind === 'aborted') {
      return { attempts, error: run.cancelled ? run.stopError() : outcome.error, aborted: true };
    }
    if (outcome.kind === 'final') {
      this.gate.success(); // the server answered: it is up
      const stop = runStopping(outcome.error);
      if (stop !== undefined) run.stopRun('refused', stop, outcome.error);
      return { attempts, error: outcome.error };
    }
    const unreachable = this.everStored ? undefined : neverReached(outcome.error);
    if (unreachable !== undefined) {
      run.stopRun('unreachable', unreachable, outcome.error);
      return this.abort(attempts);
    }
    this.gate.failure(outcome.error.message);
    if (this.gate.exhausted()) run.stopRun('outage', this.gate.stopMessage());
    const delay = retryDelayMs(attempts, outcome.serverDelayMs, BULK_DEFAULTS);
    // outage pauses are not the document's: they do not spend its budget
    const spent = Date.now() - firstAt - (this.gate.pausedMs() - pausedAtFirst);
    if (attempts < this.maxAttempts && spent + delay <= this.retryForMs) return delay;
    return { attempts, error: this.gaveUp(outcome.error, attempts, spent) };
  }

  /** The error of a document whose retry budget is spent. */
  private gaveUp(error: KisError, attempts: number, spent: number): KisError {
    const budget =
      attempts >= this.maxAttempts
        ? `${attempts} attempts`
        : `${attempts} attempts over ${Math.round(spent / 1000)} s (retry budget ${Math.round(this.retryForMs / 1000)} s)`;
    return new KisError(`${error.message} Gave up after ${budget}.`, {
      status: error.status,
      code: error.code,
      cause: error,
    });
  }

  /** Not stored: the run stopped or was cancelled. */
  private abort(attempts: number): Sent {
    return { attempts, error: this.control.stopError(), aborted: true };
  }

  /**
   * The shared limit's permission for the next request (`requestGate`): its release, or
   * undefined when the run stopped while it waited.
   */
  private async permit(gate: RequestGate): Promise<(() => void) | undefined> {
    const waits = this.control.waits;
    let release: () => void;
    try {
      release = await gate.acquire(waits.signal);
    } catch (err) {
      if (waits.signal.aborted) return undefined;
      throw err;
    }
    if (!waits.signal.aborted) return release;
    release();
    return undefined;
  }

  /** A 2xx: the limiter, the outage gate and the run hear it. */
  private answered(rttMs: number, slot: SlotHold, permit: () => void): void {
    this.limit.success(rttMs);
    this.gate.success();
    this.everStored = true;
    this.endAttempt(slot, permit);
  }

  /** A request has ended: its slot and its permission are free again. */
  private endAttempt(slot: SlotHold, permit: () => void): void {
    this.counters.onWire--;
    permit();
    slot.held = false;
    this.releaseSlot();
  }

  /** Frees a request slot: a document waiting for one, else the source, may send. */
  private releaseSlot(): void {
    this.slots.release();
    this.control.wake();
  }
}
