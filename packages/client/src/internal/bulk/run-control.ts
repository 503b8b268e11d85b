/**
 * Whether a bulk run goes on, shared by its parts: cancelled (its signal, a loop left early, a
 * stop of its own) or stopping (`stop()`), and the registries that end its requests and waits.
 */
import { APIUserAbortError, KisError } from '../../errors.js';
import type { IngestSummary } from '../../ingest.js';
import type { LevelLogger } from '../../logging.js';
import { abortRegistry } from '../abort.js';

/** The error of documents not stored because the run stopped by itself (`summary.stopped`). */
export class RunStopped extends KisError {
  static override readonly kind: string = 'RunStopped';
}

const noop = (): void => undefined;

export class RunControl {
  /** Requests and uploads on the wire: ended by cancelling. */
  readonly registry = abortRegistry();
  /** Waits (for a retry, a probe turn, a slot, a permit): ended by `stop()` as well. */
  readonly waits = abortRegistry();
  cancelled = false;
  stopping = false;
  /** Why the run stopped by itself (the summary's `stopped`). */
  stopped: IngestSummary['stopped'];
  /** Wakes the run's pull loop: set by the run once the loop exists. */
  wake: () => void = noop;

  constructor(private readonly log: LevelLogger) {}

  /** No new document is read and no new request starts. */
  get halted(): boolean {
    return this.cancelled || this.stopping;
  }

  /** Aborts requests on the wire and every wait. */
  cancel(reason?: KisError): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.registry.abort(reason);
    this.waits.abort(reason);
    this.wake();
  }

  /** Ends the waits only: requests on the wire finish and count. */
  stop(): void {
    if (this.stopping) return;
    this.stopping = true;
    this.waits.abort(
      new APIUserAbortError('ingestMany was stopped before this document was stored.'),
    );
    this.wake();
  }

  /** The run stops by itself: said once, in the log and the summary. */
  stopRun(reason: 'outage' | 'refused' | 'unreachable', message: string, error?: KisError): void {
    if (this.stopped) return;
    this.stopped = error === undefined ? { reason, message } : { reason, message, error };
    this.log.log('error', message);
    this.cancel(new RunStopped(message));
  }

  /** The error of a document the run's end kept from being stored. */
  stopError(): KisError {
    for (const reason of [this.registry.signal.reason, this.waits.signal.reason]) {
      if (KisError.isInstance(reason)) return reason;
    }
    return new APIUserAbortError('ingestMany was cancelled before this document was stored.');
  }
}
