import { Agent, get } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator, EmulatorOptions } from '../src/index.js';
import { drawFault, parseFaults, seededRandom } from '../src/internal/faults.js';
import { emulatorLaunch } from '../src/launcher.js';
import { doc, start as startWith } from './helpers.js';

const started: Emulator[] = [];
afterEach(async () => {
  for (const e of started.splice(0)) await e.close();
});

async function start(options: EmulatorOptions): Promise<Emulator> {
  const { emulator: e } = await startWith(options);
  started.push(e);
  return e;
}

/** One ingestion call; `status: 'reset'` when the connection was cut without an answer. */
async function ingest(e: Emulator, id: string): Promise<{ status: number | 'reset' }> {
  try {
    const r = await fetch(`${e.baseUrl}/svc-api/ingestion`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ document: doc({ id }) }),
    });
    await r.arrayBuffer();
    return { status: r.status };
  } catch {
    return { status: 'reset' };
  }
}

describe('--faults', () => {
  it('parses the issue mix; a bad item is named with what was expected', () => {
    const plan = parseFaults('503=0.10,429=0.05,reset=0.01,reset-after-store=0.01,slow=0.01:30s');
    expect(plan).toEqual({
      rates: { '503': 0.1, '429': 0.05, reset: 0.01, 'reset-after-store': 0.01, slow: 0.01 },
      slowMs: 30_000,
    });
    expect(() => parseFaults('502=0.1')).toThrow(
      "--faults item '502=0.1': unknown fault '502' (expected one of 503, 429, reset, reset-after-store, slow, index-fail)",
    );
    expect(() => parseFaults('503=lots')).toThrow(
      "--faults item '503=lots': the rate must be a number from 0 to 1 (got 'lots')",
    );
    expect(() => parseFaults('slow=0.1:soon')).toThrow(
      "--faults item 'slow=0.1:soon': expected a duration such as 500ms, 30s or 1m (got 'soon')",
    );
    expect(() => parseFaults('503=0.7,429=0.5')).toThrow('the rates add up to 1.2, more than 1');
    expect(() => emulatorLaunch({ faults: '503' }, { env: {}, cwd: '/' })).toThrow(
      "--faults item '503': expected 503=RATE",
    );
    expect(() => emulatorLaunch({ outage: '5' }, { env: {}, cwd: '/' })).toThrow(
      "--outage must be AFTER_S:FOR_S, two numbers of seconds such as 30:20 (got '5')",
    );
    expect(() => emulatorLaunch({ queue: '4' }, { env: {}, cwd: '/' })).toThrow(
      '--queue needs --capacity',
    );
  });

  it('the same seed draws the same faults, at the rates asked for', () => {
    const plan = parseFaults('503=0.10,429=0.05');
    const draws = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 10_000 }, () => drawFault(plan, random));
    };
    expect(draws(7)).toEqual(draws(7));
    expect(draws(7)).not.toEqual(draws(8));
    const counts = draws(7).reduce<Record<string, number>>((m, k) => {
      m[k ?? 'none'] = (m[k ?? 'none'] ?? 0) + 1;
      return m;
    }, {});
    expect(counts['503']).toBeGreaterThan(900);
    expect(counts['503']).toBeLessThan(1100);
    expect(counts['429']).toBeGreaterThan(420);
    expect(counts['429']).toBeLessThan(580);
  });

  it('answers 503 and 429 (Retry-After: 0), resets, and stores before a reset-after-store', async () => {
    const e = await start({ faults: '503=0.2,429=0.2,reset=0.2,reset-after-store=0.2', seed: 3 });
    const seen = new Map<string, number>();
    for (let i = 0; i < 200; i++) {
      const { status } = await ingest(e, `doc-${i}`);
      seen.set(String(status), (seen.get(String(status)) ?? 0) + 1);
    }
    const stats = e.stats();
    expect(stats.faults['503']).toBe(seen.get('503'));
    expect(stats.faults['429']).toBe(seen.get('429'));
    expect((stats.faults.reset ?? 0) + (stats.faults['reset-after-store'] ?? 0)).toBe(
      seen.get('reset'),
    );
    // stored: every 200 and every reset-after-store, nothing for the other faults
    expect(e.state.documents({ limit: -1 })).toHaveLength(
      (seen.get('200') ?? 0) + (stats.faults['reset-after-store'] ?? 0),
    );
    expect(stats.ingestion).toMatchObject({ requests: 200, acknowledged: seen.get('200') });
  });

  it('a 429 says Retry-After: 0; faults touch only the ingestion call', async () => {
    const e = await start({ faults: '429=1' });
    const r = await fetch(`${e.baseUrl}/svc-api/ingestion`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ document: doc() }),
    });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('0');
    const list = await fetch(`${e.baseUrl}/manage/admin/credential`, {
      headers: { authorization: `Bearer ${e.adminKey}` },
    });
    expect(list.status).toBe(200);
  });

  it('counts a document sent again after its acknowledgement', async () => {
    const e = await start({});
    await ingest(e, 'again');
    await ingest(e, 'again');
    await ingest(e, 'other');
    expect(e.stats().ingestion).toEqual({
      requests: 3,
      acknowledged: 2,
      resent_after_ack: 1,
      embeddings: expect.any(Number),
    });
    const r = await fetch(`${e.url}/_emulator/stats`);
    expect(((await r.json()) as { ingestion: unknown }).ingestion).toEqual(e.stats().ingestion);
  });

  it('counts the connections it accepts (reused by keep-alive, new without it)', async () => {
    const e = await start({});
    const health = (agent: Agent | false) =>
      new Promise<void>((resolve, reject) => {
        get(`${e.url}/_emulator/health`, { agent }, (res) => res.resume().on('end', resolve)).on(
          'error',
          reject,
        );
      });
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    await health(keepAlive);
    await health(keepAlive);
    expect(e.stats().connections).toBe(1);
    await health(false);
    expect(e.stats().connections).toBe(2);
    keepAlive.destroy();
  });
});

describe('--capacity and --queue', () => {
  it('serves N at once, queues M more and answers 503 past them', async () => {
    const e = await start({ capacity: 2, queue: 1, latencyMs: 200 });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => ingest(e, `c-${i}`)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 503, 503, 503]);
    expect(e.stats().capacity).toEqual({ max_in_service: 2, max_queued: 1, refused_queue_full: 3 });
  });
});

describe('--outage', () => {
  it('refuses connections during the window, then serves again with its state', async () => {
    const e = await start({});
    expect((await ingest(e, 'before')).status).toBe(200);
    const back = e.outage(300);
    let refused = false;
    try {
      await fetch(`${e.baseUrl}/svc-api/ingestion`, { method: 'GET' });
    } catch (error) {
      refused = ((error as { cause?: { code?: string } }).cause?.code ?? '') === 'ECONNREFUSED';
    }
    expect(refused).toBe(true);
    expect(e.stats().outage).toMatchObject({ active: true, outages: 1 });
    await back;
    expect((await ingest(e, 'after')).status).toBe(200);
    expect(
      e.state
        .documents({ limit: -1 })
        .map((d) => d.id)
        .sort(),
    ).toEqual(['after', 'before']);
    expect(e.stats().outage).toMatchObject({ active: false, outages: 1 });
  });
});
