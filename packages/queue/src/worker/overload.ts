/**
 * Overload of the server backs off the whole queue (README, "Limits"): a worker that sees most of
 * its recent ingestion answers refused with 429 or 503 (or one refusal asking to wait a second or
 * more) sets BullMQ's manual rate limit, so no worker starts a job until it expires, and every
 * worker waits it out before sending a job's next document. Random faults refuse a few answers
 * in any window and do not trip it; the client's bulk engine retries them as in a local run.
 *
 * Answers are seen through the bulk engine's `onAttempt`, which reports every request of the run.
 */

/** Recent ingestion answers judged. */
const WINDOW = 20;
/** Refused share of the window that means overload. */
const OVERLOAD_SHARE = 0.5;
/** Fewest refusals before the share counts. */
const MIN_REFUSALS = 5;
/** A refusal asking to wait this long or more is overload by itself. */
const LONG_RETRY_AFTER_MS = 1_000;
/** First queue-wide pause, doubled while overload goes on, up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;
/** Quiet time after which the pause starts from FIRST_BACKOFF_MS again. */
const CALM_MS = 30_000;

const REFUSED = new Set([429, 503]);

export class OverloadWatch {
  private readonly answers: boolean[] = [];
  private refusals = 0;
  private backoffMs = FIRST_BACKOFF_MS;
  private lastOverloadAt = 0;
  /** Queue-wide pauses asked for. */
  tripped = 0;

  /** `onOverload(ms)`: pause the queue for `ms`. */
  constructor(private readonly onOverload: (ms: number, reason: string) => void) {}

  /** One ingestion answer: its status and `Retry-After`. */
  observe(status: number, retryAfter: number | undefined, now = Date.now()): void {
    const refused = REFUSED.has(status);
    this.answers.push(refused);
    if (refused) this.refusals++;
    if (this.answers.length > WINDOW && this.answers.shift()) this.refusals--;
    if (!refused) return;
    const long = retryAfter !== undefined && retryAfter >= LONG_RETRY_AFTER_MS;
    const share = this.refusals >= MIN_REFUSALS && this.refusals / WINDOW >= OVERLOAD_SHARE;
    if (!long && !share) return;
    if (now - this.lastOverloadAt > CALM_MS) this.backoffMs = FIRST_BACKOFF_MS;
    const ms = long ? Math.min(retryAfter as number, MAX_BACKOFF_MS * 4) : this.backoffMs;
    if (!long) this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    this.lastOverloadAt = now;
    // judge the next window afresh: the pause changes what the server sees
    this.answers.length = 0;
    this.refusals = 0;
    this.tripped++;
    this.onOverload(
      ms,
      long
        ? `the server answered ${status} asking to wait ${Math.round(ms / 100) / 10} s`
        : `the server refused most recent requests (${status})`,
    );
  }
}
