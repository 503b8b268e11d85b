/** A bulk run's running counts: results by status, retries, documents in progress and on the wire. */
import type { IngestStatus } from '../../ingest.js';

export class RunCounters {
  created = 0;
  updated = 0;
  failed = 0;
  skipped = 0;
  aborted = 0;
  valid = 0;
  /** Retry attempts over all documents. */
  retried = 0;
  /** Documents in progress: pulled and not yet completed (sending, or waiting to retry). */
  active = 0;
  /** Documents with a request on the wire (sent, not yet answered). */
  onWire = 0;

  count(status: IngestStatus): void {
    this[status]++;
  }

  /** Results so far. */
  get done(): number {
    return this.created + this.updated + this.failed + this.skipped + this.aborted + this.valid;
  }

  /** Documents the server acknowledged. */
  get acked(): number {
    return this.created + this.updated;
  }
}
