import { type Emulator, startEmulator } from '@kis/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { createKisClient } from '../src/index.node.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const docs = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `hedge-${i}`,
    semantic_identifier: `Hedged ${i}`,
    sections: [{ text: `text ${i}` }],
    source: 'file' as const,
    metadata: {},
  }));

describe('ingestMany with answers that stall', () => {
  it('hedges a stalled send with the same id: the run never waits for the stalled answers', async () => {
    // 3 % of calls answer after 60 s: without hedges the run could not end sooner
    emulator = await startEmulator({ faults: 'slow=0.03:60s', seed: 5 });
    const kis = createKisClient({
      baseUrl: emulator.baseUrl,
      apiKey: emulator.adminKey,
      logLevel: 'off',
    });
    const summary = await kis.ingestMany(docs(600)).done();
    expect(summary).toMatchObject({ created: 600, failed: 0 });
    expect(summary.hedged).toBeGreaterThanOrEqual(emulator.stats().faults.slow ?? 0);
    expect(summary.elapsedMs).toBeLessThan(60_000);
    expect(emulator.state.documents({ limit: -1 })).toHaveLength(600);
    expect(emulator.stats().ingestion.resent_after_ack).toBe(0);
  }, 60_000);

  it('never hedges a server that is slow for every call', async () => {
    emulator = await startEmulator({ latencyMs: 300 });
    const kis = createKisClient({
      baseUrl: emulator.baseUrl,
      apiKey: emulator.adminKey,
      logLevel: 'off',
    });
    const summary = await kis.ingestMany(docs(150)).done();
    expect(summary).toMatchObject({ created: 150, failed: 0, hedged: 0 });
    expect(emulator.stats().ingestion.requests).toBe(150);
  }, 60_000);
});

describe('ingestMany without hedges', () => {
  it('keeps each document to one request on the wire, and reports every request', async () => {
    emulator = await startEmulator({ faults: 'slow=0.05:1500ms,503=0.05', seed: 11 });
    const kis = createKisClient({
      baseUrl: emulator.baseUrl,
      apiKey: emulator.adminKey,
      logLevel: 'off',
    });
    const attempts: Array<{ status?: number | undefined; error?: string | undefined }> = [];
    const summary = await kis
      .ingestMany(docs(200), {
        hedge: false,
        onAttempt: (a) => attempts.push({ status: a.status, error: a.error }),
      })
      .done();
    expect(summary).toMatchObject({ created: 200, failed: 0, hedged: 0 });
    const stats = emulator.stats();
    // one report per request the server saw, 503s included; no second copy of any document
    expect(attempts).toHaveLength(stats.ingestion.requests);
    expect(attempts.filter((a) => a.status === 503)).toHaveLength(stats.faults['503'] ?? 0);
    expect(stats.ingestion.requests).toBe(200 + (stats.faults['503'] ?? 0));
  }, 60_000);
});
