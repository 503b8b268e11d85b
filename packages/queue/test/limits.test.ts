import { join } from 'node:path';
import { startEmulator } from '@kis/emulator';
import { describe, expect, it } from 'vitest';
import { enqueue, queueStatus, setQueueLimits, startWorker } from '../src/index.js';
import { KEY, queueSetup, until, writeJsonl } from './helpers.js';

/**
 * One request of slack on the server's count per second: the gate spaces the starts, and a start
 * delayed on a busy machine can land in the same second as the next one (the benchmark allows 10%).
 */
const ARRIVAL_SLACK = 1;

/** Ingestion requests the emulator served: when each started and ended (ms). */
function requestLog() {
  const spans: { start: number; end: number }[] = [];
  const logRequest = (line: string) => {
    const m = /^POST \S*\/ingestion \d+ ([\d.]+)ms$/.exec(line);
    if (!m) return;
    const end = Date.now();
    spans.push({ start: end - Number(m[1]), end });
  };
  return {
    logRequest,
    spans,
    /** Most requests that started in any one calendar second (from `after`, ms). */
    maxPerSecond(after = 0) {
      const perSecond = new Map<number, number>();
      for (const s of spans) {
        if (s.start < after) continue;
        const second = Math.floor(s.start / 1000);
        perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
      }
      return Math.max(...perSecond.values());
    },
    /** Requests per second from the first start to the last (from `after`, ms). */
    achievedRate(after = 0) {
      const starts = spans.map((s) => s.start).filter((t) => t >= after);
      return (starts.length - 1) / ((Math.max(...starts) - Math.min(...starts)) / 1000);
    },
    /** Most requests in service at once (of those that started from `after`, ms). */
    maxInFlight(after = 0) {
      const events = spans
        .filter((s) => s.start >= after)
        .flatMap((s) => [
          { t: s.start, d: 1 },
          { t: s.end, d: -1 },
        ]);
      events.sort((a, b) => a.t - b.t || a.d - b.d);
      let now = 0;
      let max = 0;
      for (const e of events) {
        now += e.d;
        max = Math.max(max, now);
      }
      return max;
    },
  };
}

describe('limits held per request across workers', () => {
  const q = queueSetup('limits');
  const { corpus, workers } = q;

  /** An emulator logging its requests, and a JSONL run of `docs` documents in jobs of `batch`. */
  async function setUp(queue: string, docs: number, batch: number, latencyMs = 0) {
    const log = requestLog();
    q.emulator = await startEmulator({ adminKey: KEY, latencyMs, logRequest: log.logRequest });
    const target = { connection: q.redis.url, queue };
    const file = join(corpus.dir, `${queue}.jsonl`);
    writeJsonl(file, docs, queue);
    const run = await enqueue({ kind: 'jsonl', file }, { ...target, batchSize: batch });
    const kis = { baseUrl: q.emulator.baseUrl, apiKey: KEY };
    const finished = () =>
      until(
        async () => (await queueStatus({ ...target, runId: run.runId })).runs[0]?.finished === true,
        'the run to finish',
        60_000,
      );
    return { log, target, run, kis, finished };
  }

  it('a rate set by workers started after the enqueue holds, whatever a job holds', async () => {
    const { log, target, run, kis, finished } = await setUp('rate-after', 100, 25);
    expect(run.batchSize).toBe(25);
    for (const name of ['a', 'b']) {
      workers.push(await startWorker({ ...target, kis, concurrency: 4, name, rate: '20/s' }));
    }
    await finished();
    expect(log.spans).toHaveLength(100);
    expect(log.maxPerSecond()).toBeLessThanOrEqual(20 + ARRIVAL_SLACK);
    // used, not just respected: from the first request to the last
    expect(log.achievedRate()).toBeGreaterThan(15);
    const status = await queueStatus(target);
    expect(status.limits).toEqual({ maxInFlight: null, ratePerSec: 20 });
    expect(status.requestsPerSec).toBeGreaterThan(0);
  });

  it('four workers on jobs of 50 documents keep to the rate', async () => {
    const { log, target, kis, finished } = await setUp('rate-four', 200, 50);
    await setQueueLimits({ ...target, rate: '50/s' });
    for (const name of ['a', 'b', 'c', 'd']) {
      workers.push(await startWorker({ ...target, kis, concurrency: 8, name }));
    }
    await finished();
    expect(log.spans).toHaveLength(200);
    expect(log.maxPerSecond()).toBeLessThanOrEqual(50 + ARRIVAL_SLACK);
    expect(log.achievedRate()).toBeGreaterThan(40);
  });

  it('a rate changed mid-run holds from then on', async () => {
    const { log, target, run, kis, finished } = await setUp('rate-change', 120, 50);
    await setQueueLimits({ ...target, rate: '40/s' });
    for (const name of ['a', 'b']) {
      workers.push(await startWorker({ ...target, kis, concurrency: 4, name }));
    }
    await until(
      async () =>
        ((await queueStatus({ ...target, runId: run.runId })).runs[0]?.documents.stored ?? 0) >= 40,
      '40 documents stored',
      30_000,
    );
    await setQueueLimits({ ...target, rate: '10/s' });
    const changedAt = Date.now();
    await finished();
    expect(log.maxPerSecond(changedAt - 1000)).toBeGreaterThan(10);
    // requests reserved under the old rate still leave within a few of its intervals
    expect(log.maxPerSecond(changedAt + 200)).toBeLessThanOrEqual(10 + ARRIVAL_SLACK);
    expect(log.achievedRate(changedAt + 200)).toBeGreaterThan(7);
  });

  it('a ceiling holds across workers, and a lower one from the next request on', async () => {
    const { log, target, run, kis, finished } = await setUp('ceiling', 160, 10, 30);
    await setQueueLimits({ ...target, maxInFlight: 6 });
    for (const name of ['a', 'b']) {
      workers.push(await startWorker({ ...target, kis, concurrency: 8, name }));
    }
    await until(
      async () =>
        ((await queueStatus({ ...target, runId: run.runId })).runs[0]?.documents.stored ?? 0) >= 60,
      '60 documents stored',
      30_000,
    );
    await setQueueLimits({ ...target, maxInFlight: 2 });
    const changedAt = Date.now();
    await finished();
    expect(log.spans).toHaveLength(160);
    expect(log.maxInFlight()).toBe(6);
    // requests already on the wire at the change end within the server's 30 ms
    expect(log.maxInFlight(changedAt + 100)).toBeLessThanOrEqual(2);
    const status = await queueStatus(target);
    expect(status.limits).toEqual({ maxInFlight: 2, ratePerSec: null });
  });
});
