import { join } from 'node:path';
import { startEmulator } from '@kis/emulator';
import { describe, expect, it } from 'vitest';
import { enqueue, queueStatus, setQueueLimits, startWorker } from '../src/index.js';
import { KEY, queueSetup, until, writeJsonl } from './helpers.js';

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
    /** Most requests that started in any one calendar second. */
    maxPerSecond() {
      const perSecond = new Map<number, number>();
      for (const s of spans) {
        const second = Math.floor(s.start / 1000);
        perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
      }
      return Math.max(...perSecond.values());
    },
    /** Most requests in service at once. */
    maxInFlight() {
      const events = spans.flatMap((s) => [
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

describe('global limits across workers', () => {
  const q = queueSetup('limits');
  const { corpus, workers } = q;

  async function runAll(
    queue: string,
    docs: number,
    latencyMs: number,
    limits: { rate?: string; maxInFlight?: number },
  ) {
    const log = requestLog();
    q.emulator = await startEmulator({ adminKey: KEY, latencyMs, logRequest: log.logRequest });
    const target = { connection: q.redis.url, queue };
    const file = join(corpus.dir, `${queue}.jsonl`);
    writeJsonl(file, docs, queue);
    await setQueueLimits({ ...target, ...limits });
    const run = await enqueue({ kind: 'jsonl', file }, { ...target, batchSize: 25 });
    const kis = { baseUrl: q.emulator.baseUrl, apiKey: KEY };
    for (const name of ['a', 'b']) {
      workers.push(await startWorker({ ...target, kis, concurrency: 4, name }));
    }
    await until(
      async () => (await queueStatus({ ...target, runId: run.runId })).runs[0]?.finished === true,
      'the run to finish',
      60_000,
    );
    return { run, log, target };
  }

  it('a rate of 20/s holds across two workers (one document per job)', async () => {
    const { run, log, target } = await runAll('rate', 100, 0, { rate: '20/s' });
    expect(run.batchSize).toBe(1);
    expect(run.jobs).toBe(100);
    expect(run.ratePerSec).toBe(20);
    expect(log.spans).toHaveLength(100);
    expect(log.maxPerSecond()).toBeLessThanOrEqual(20);
    // and the rate is used, not just respected: judged from the first request to the last, as
    // the workers' start-up and the status polling are not the limiter's to spend
    const starts = log.spans.map((span) => span.start);
    expect(99 / ((Math.max(...starts) - Math.min(...starts)) / 1000)).toBeGreaterThan(12);
    const status = await queueStatus(target);
    expect(status.limits.ratePerSec).toBe(20);
  });

  it('maxInFlight 3 holds across two workers of concurrency 4', async () => {
    const { log, target } = await runAll('ceiling', 120, 30, { maxInFlight: 3 });
    expect(log.spans).toHaveLength(120);
    expect(log.maxInFlight()).toBeLessThanOrEqual(3);
    expect(log.maxInFlight()).toBe(3);
    const status = await queueStatus(target);
    expect(status.limits).toEqual({ maxInFlight: 3, ratePerSec: null });
  });
});
