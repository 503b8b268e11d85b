// The bulk limiter against simulated servers (a virtual clock, a seeded random source): it must
// find the knee of a server that serves N requests at once (queueing the next M, refusing
// beyond), upward and downward, and hold its level when refusals are random.
import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from '../src/internal/bulk/limiter.js';

interface ServerModel {
  /** Requests served at once. */
  capacity: number;
  /** Requests waiting beyond that; more are refused at once with 503. */
  queue: number;
  serviceMs: number;
  /** Chance that a request is refused at random (429/503), whatever the load. */
  randomRefusal?: number;
}

/** A seeded PRNG (mulberry32), so each run of the test sees the same faults. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Keeps `limiter.limit` requests in flight against the model for `durationMs` of virtual time
 * and returns the successes per second and the limit over the last half of the run.
 */
function simulate(model: ServerModel, limiter: ConcurrencyLimiter, durationMs = 30_000) {
  const rnd = random(42);
  type Done = { at: number; sentAt: number; ok: boolean };
  const pending: Done[] = [];
  const serverFree: number[] = []; // times at which each busy service slot frees
  let now = 0;
  let inFlight = 0;
  let ok = 0;
  const limits: number[] = [];
  const send = () => {
    inFlight++;
    if (model.randomRefusal && rnd() < model.randomRefusal) {
      pending.push({ at: now + 0.5, sentAt: now, ok: false });
      return;
    }
    // service slots busy until some time; a request waits for the earliest free slot
    const busy = serverFree.filter((t) => t > now).sort((a, b) => a - b);
    if (busy.length < model.capacity) {
      serverFree.push(now + model.serviceMs);
      pending.push({ at: now + model.serviceMs, sentAt: now, ok: true });
      return;
    }
    const waiting = busy.length - model.capacity;
    if (waiting >= model.queue) {
      pending.push({ at: now + 0.5, sentAt: now, ok: false });
      return;
    }
    const start = busy[waiting] as number;
    serverFree.push(start + model.serviceMs);
    pending.push({ at: start + model.serviceMs, sentAt: now, ok: true });
  };
  while (now < durationMs) {
    while (inFlight < limiter.limit) send();
    pending.sort((a, b) => a.at - b.at);
    const next = pending.shift() as Done;
    now = next.at;
    inFlight--;
    for (let i = serverFree.length - 1; i >= 0; i--) {
      if ((serverFree[i] as number) <= now) serverFree.splice(i, 1);
    }
    if (next.ok) {
      if (now > durationMs / 2) ok++;
      limiter.success(now - next.sentAt);
    } else limiter.refused();
    if (now > durationMs / 2) limits.push(limiter.limit);
  }
  const mean = limits.reduce((a, b) => a + b, 0) / limits.length;
  return { goodput: ok / (durationMs / 2 / 1000), meanLimit: mean };
}

describe('ConcurrencyLimiter', () => {
  it.each([
    [16, 16],
    [4, 4],
  ])(
    'finds the knee of a server serving %i at once (queue %i) from a ceiling of 64',
    (capacity, queue) => {
      const model = { capacity, queue, serviceMs: 20 };
      const best = (capacity * 1000) / model.serviceMs;
      const r = simulate(model, new ConcurrencyLimiter({ max: 64 }));
      expect(r.goodput).toBeGreaterThanOrEqual(0.9 * best);
      // not far past what the server can serve and queue
      expect(r.meanLimit).toBeLessThanOrEqual(1.5 * (capacity + queue) + 2);
    },
  );

  it('comes down from a start far past the knee', () => {
    const model = { capacity: 4, queue: 0, serviceMs: 20 };
    const r = simulate(model, new ConcurrencyLimiter({ max: 64, initial: 64 }));
    expect(r.goodput).toBeGreaterThanOrEqual(0.9 * ((4 * 1000) / 20));
    expect(r.meanLimit).toBeLessThanOrEqual(8);
  });

  it('grows from its start to a big server that serves 48 at once', () => {
    const model = { capacity: 48, queue: 48, serviceMs: 20 };
    const r = simulate(model, new ConcurrencyLimiter({ max: 64 }));
    expect(r.goodput).toBeGreaterThanOrEqual(0.9 * ((48 * 1000) / 20));
  });

  it('holds its level when 15% of requests are refused at random', () => {
    const model = { capacity: 1000, queue: 0, serviceMs: 20, randomRefusal: 0.15 };
    const r = simulate(model, new ConcurrencyLimiter({ max: 16 }));
    expect(r.meanLimit).toBeGreaterThanOrEqual(14);
    expect(r.goodput).toBeGreaterThanOrEqual(0.8 * ((16 * 1000) / 20));
  });

  it('still backs off from overload when random refusals come on top', () => {
    const model = { capacity: 4, queue: 4, serviceMs: 20, randomRefusal: 0.15 };
    const r = simulate(model, new ConcurrencyLimiter({ max: 64 }));
    expect(r.meanLimit).toBeLessThanOrEqual(16);
    expect(r.goodput).toBeGreaterThanOrEqual(0.8 * ((4 * 1000) / 20));
  });

  it('stays within its floor and ceiling', () => {
    const l = new ConcurrencyLimiter({ max: 10, min: 3, initial: 50 });
    expect(l.limit).toBe(10);
    for (let i = 0; i < 500; i++) l.refused();
    expect(l.limit).toBe(3);
  });
});
