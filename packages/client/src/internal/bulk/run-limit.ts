/**
 * A bulk run's limit on requests in flight: the adaptive one of limiter.ts, or `concurrency`
 * fixed (`adaptive: false`), with the lowest and highest it reached for the summary.
 */
import type { IngestManyOptions, IngestSummary } from '../../ingest.js';
import { ConcurrencyLimiter } from './limiter.js';

/** Default ceiling of a bulk run's adaptive limit: the limiter finds the server's knee below it. */
export const DEFAULT_MAX_CONCURRENCY = 64;

export class RunLimit {
  /** The ceiling (`concurrency`), which is also the fixed limit. */
  readonly ceiling: number;
  private readonly limiter: ConcurrencyLimiter | undefined;
  private lowest = Number.POSITIVE_INFINITY;
  private highest = 0;

  constructor(options: IngestManyOptions) {
    const max = options.concurrency ?? DEFAULT_MAX_CONCURRENCY;
    const min = Math.min(options.minConcurrency ?? 1, max);
    this.ceiling = max;
    this.limiter = options.adaptive === false ? undefined : new ConcurrencyLimiter({ max, min });
  }

  /** Requests allowed in flight now (read at every slot taken). */
  current(): number {
    const limit = this.limiter ? this.limiter.limit : this.ceiling;
    if (limit < this.lowest) this.lowest = limit;
    if (limit > this.highest) this.highest = limit;
    return limit;
  }

  /** A request answered 2xx after `rttMs`. */
  success(rttMs: number): void {
    this.limiter?.success(rttMs);
  }

  /** A request refused for load (retry-policy.ts). */
  refused(): void {
    this.limiter?.refused();
  }

  summary(): IngestSummary['concurrency'] {
    const final = this.current();
    return { final, min: Number.isFinite(this.lowest) ? this.lowest : final, max: this.highest };
  }
}
