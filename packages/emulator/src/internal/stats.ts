// Counters behind `GET /_emulator/stats`: what the server answered and what it suffered, so a
// test or benchmark can tell how often a document was sent after it had been acknowledged.
import type { FaultKind } from './faults.js';
import type { Acknowledgements } from './store/acknowledgements.js';

export interface StatsView {
  requests: number;
  /** TCP connections accepted: near `requests` when clients do not reuse connections. */
  connections: number;
  by_status: Record<string, number>;
  faults: Partial<Record<FaultKind, number>>;
  ingestion: {
    /** Ingestion calls received (answered or not). */
    requests: number;
    /** Distinct document ids acknowledged with a 200 that reached the client. */
    acknowledged: number;
    /** Requests for ids acknowledged before they arrived: sends the client could have spared. */
    resent_after_ack: number;
    /**
     * Times documents were (re)chunked and embedded: pushes the hash gate let through, writes of
     * a model switch's new index, ports. A skipped push and a failed index write count none.
     */
    embeddings: number;
  };
  capacity: { max_in_service: number; max_queued: number; refused_queue_full: number } | null;
  outage: { active: boolean; outages: number; last_ended_at: string | null };
}

export class EmulatorStats {
  requests = 0;
  connections = 0;
  readonly byStatus = new Map<number, number>();
  readonly faults = new Map<FaultKind, number>();
  ingestionRequests = 0;
  resentAfterAck = 0;
  refusedQueueFull = 0;

  /** `acknowledgements`: the ids acknowledged so far, kept in the store's temporary table. */
  constructor(private readonly acknowledgements: Acknowledgements) {}

  status(status: number): void {
    this.requests++;
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
  }

  fault(kind: FaultKind): void {
    this.faults.set(kind, (this.faults.get(kind) ?? 0) + 1);
  }

  /**
   * A 200 answer for this document id went out, to a request that arrived at `arrivedAt`: a
   * request that arrived after an earlier acknowledgement of the same id was a needless re-send.
   */
  acknowledge(documentId: string, arrivedAt: number): void {
    if (this.acknowledgements.record(documentId, arrivedAt, performance.now())) {
      this.resentAfterAck++;
    }
  }

  view(
    capacity: { maxInService: number; maxQueued: number } | undefined,
    outage: StatsView['outage'],
    embeddings: number,
  ): StatsView {
    return {
      requests: this.requests,
      connections: this.connections,
      by_status: Object.fromEntries([...this.byStatus].map(([s, n]) => [String(s), n])),
      faults: Object.fromEntries(this.faults),
      ingestion: {
        requests: this.ingestionRequests,
        acknowledged: this.acknowledgements.count,
        resent_after_ack: this.resentAfterAck,
        embeddings,
      },
      capacity:
        capacity === undefined
          ? null
          : {
              max_in_service: capacity.maxInService,
              max_queued: capacity.maxQueued,
              refused_queue_full: this.refusedQueueFull,
            },
      outage,
    };
  }
}
