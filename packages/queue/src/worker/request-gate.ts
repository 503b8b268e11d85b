/**
 * The queue's rate and ceiling, held per request across every worker (README, "Limits"). A
 * request asks Redis for a permit in one Lua script, which drops the leases of requests that
 * outlived their time-out (a killed worker's), refuses while `maxInFlight` leases are out, and
 * spaces request starts on Redis's own clock, handing back how long to wait before sending. So
 * the limits hold whatever a job holds, whichever order workers and producers start in, and
 * from the next request on when `kis queue limits` changes them.
 *
 * A worker's waiting requests ask together (one script call for all of them), the next call
 * as soon as one of its own requests ends or, when the ceiling is full, after a short poll.
 * Without limits no request waits: the worker only re-reads them twice a second.
 */
import type { RequestGate } from '@kis/client';
import type { Redis } from 'ioredis';
import type { RunKeys } from '../run-store.js';

/** How often the limits are read while none is set, and request counts written. */
const REFRESH_MS = 500;
/** Permits asked for in one call at most. */
const MAX_BATCH = 64;
/** Waits between calls while the ceiling is full: from the first, doubling up to the last. */
const FIRST_POLL_MS = 1;
const MAX_POLL_MS = 20;
/**
 * Starts are spaced `(1000 + JITTER_MS) / rate` ms apart, so that no second at the server sees
 * more than the rate although a request may leave up to this late (timers, network).
 */
export const JITTER_MS = 20;
/** How long request counts are kept (`recentRequestRate` reads the last 10 s). */
const SENT_TTL_S = 120;

// KEYS: limits hash, leases zset, next start; ARGV: lease prefix, first seq, wanted, lease ms,
// jitter ms. Reply: {-1} without limits, else {granted, has ceiling, delay ms of each as text}.
const PERMITS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local limits = redis.call('HMGET', KEYS[1], 'maxInFlight', 'ratePerSec')
local max = tonumber(limits[1])
local rate = tonumber(limits[2])
if not max and not rate then return {-1} end
local n = tonumber(ARGV[3])
if max then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  n = math.min(n, max - redis.call('ZCARD', KEYS[2]))
  if n <= 0 then return {0, 1} end
end
local reply = {n, max and 1 or 0}
local next = tonumber(redis.call('GET', KEYS[3]) or '0')
local spacing = rate and (1000 + tonumber(ARGV[5])) / rate or 0
for i = 1, n do
  local at = now
  if rate then
    at = math.max(now, next)
    next = at + spacing
  end
  if max then
    redis.call('ZADD', KEYS[2], at + tonumber(ARGV[4]), ARGV[1] .. (tonumber(ARGV[2]) + i - 1))
  end
  reply[#reply + 1] = tostring(at - now)
end
if rate then redis.call('SET', KEYS[3], tostring(next), 'PX', math.ceil(next - now) + 60000) end
return reply
`;

interface GateCommands {
  kisPermits(
    limits: string,
    leases: string,
    next: string,
    leasePrefix: string,
    firstSeq: number,
    wanted: number,
    leaseMs: number,
    jitterMs: number,
  ): Promise<(number | string)[]>;
}

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal;
  onAbort: () => void;
}

const noop = (): void => undefined;

export interface SharedGateOptions {
  /** Names this worker's leases (unique per worker). */
  owner: string;
  /** How long a permit counts against the ceiling at most: a request's time-out and a margin. */
  leaseMs: number;
  /** Told when a call to Redis fails (the waiting requests fail with it). */
  onError?: ((error: Error) => void) | undefined;
}

export class SharedRequestGate implements RequestGate {
  private readonly redis: Redis & GateCommands;
  /** Whether a limit was set when last read. */
  private limited = false;
  private readonly waiters: Waiter[] = [];
  private pumping = false;
  private seq = 0;
  /** Requests let through since the count was last written. */
  private sent = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private wakePump: (() => void) | undefined;

  constructor(
    redis: Redis,
    private readonly keys: RunKeys,
    private readonly options: SharedGateOptions,
  ) {
    if (!('kisPermits' in redis))
      redis.defineCommand('kisPermits', { numberOfKeys: 3, lua: PERMITS });
    this.redis = redis as Redis & GateCommands;
  }

  /** Reads the limits, then keeps them and the request counts fresh until `close()`. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => {
      this.refresh().catch((error: Error) => this.options.onError?.(error));
    }, REFRESH_MS);
    this.timer.unref?.();
  }

  /** Stops the timer and writes the last request counts. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flushSent().catch(() => undefined);
  }

  acquire(signal: AbortSignal): Promise<() => void> {
    if (!this.limited) {
      this.sent++;
      return Promise.resolve(noop);
    }
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(signal.reason);
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
      void this.pump();
    });
  }

  /** Asks Redis for permits while requests wait, all of this worker's at once. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    let pollMs = FIRST_POLL_MS;
    try {
      while (this.waiters.length > 0) {
        const wanted = Math.min(this.waiters.length, MAX_BATCH);
        const firstSeq = this.seq;
        this.seq += wanted;
        const k = this.keys;
        const reply = await this.redis.kisPermits(
          k.limits,
          k.leases,
          k.nextStart,
          `${this.options.owner}:`,
          firstSeq,
          wanted,
          this.options.leaseMs,
          JITTER_MS,
        );
        const granted = Number(reply[0]);
        if (granted < 0) {
          // the limits were removed: let everyone through
          this.limited = false;
          for (const waiter of this.waiters.splice(0)) this.grant(waiter, undefined, 0);
          break;
        }
        const ceiling = Number(reply[1]) === 1;
        for (let i = 0; i < granted; i++) {
          const lease = ceiling ? `${this.options.owner}:${firstSeq + i}` : undefined;
          const waiter = this.waiters.shift();
          // a request aborted while the script ran: its permit goes back at once
          if (waiter === undefined) this.release(lease);
          else this.grant(waiter, lease, Number(reply[i + 2]));
        }
        if (granted > 0) pollMs = FIRST_POLL_MS;
        else {
          await this.roomOrPoll(pollMs);
          pollMs = Math.min(pollMs * 2, MAX_POLL_MS);
        }
      }
    } catch (error) {
      this.options.onError?.(error as Error);
      for (const waiter of this.waiters.splice(0)) {
        waiter.signal.removeEventListener('abort', waiter.onAbort);
        waiter.reject(error);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Hands a permit over, after its wait for the rate; an abort meanwhile gives it back. */
  private grant(waiter: Waiter, lease: string | undefined, delayMs: number): void {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.release(lease);
    };
    const go = () => {
      waiter.signal.removeEventListener('abort', waiter.onAbort);
      this.sent++;
      waiter.resolve(release);
    };
    if (delayMs < 1) {
      go();
      return;
    }
    const timer = setTimeout(go, delayMs);
    waiter.signal.removeEventListener('abort', waiter.onAbort);
    waiter.onAbort = () => {
      clearTimeout(timer);
      release();
      waiter.reject(waiter.signal.reason);
    };
    waiter.signal.addEventListener('abort', waiter.onAbort, { once: true });
  }

  private release(lease: string | undefined): void {
    if (lease !== undefined) this.redis.zrem(this.keys.leases, lease).catch(() => undefined);
    const wake = this.wakePump;
    this.wakePump = undefined;
    wake?.();
  }

  /** Resolves when one of this worker's requests ends, or after `ms`. */
  private roomOrPoll(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakePump = undefined;
        resolve();
      }, ms);
      this.wakePump = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async refresh(): Promise<void> {
    const [max, rate] = await this.redis.hmget(this.keys.limits, 'maxInFlight', 'ratePerSec');
    this.limited = max !== null || rate !== null;
    await this.flushSent();
  }

  private async flushSent(): Promise<void> {
    if (this.sent === 0) return;
    const n = this.sent;
    this.sent = 0;
    const key = this.keys.sent(Math.floor(Date.now() / 1000));
    await this.redis.multi().incrby(key, n).expire(key, SENT_TTL_S).exec();
  }
}
