// Bulk runs with the client's defaults through what servers do to them: an outage in mid-run,
// an outage longer than the limit, answers that are final, a spent retry budget, a dry run.

import { startLoopback } from '@kis/test-support';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  createKisClient,
  type IngestionDocument,
  type IngestProgress,
} from '../src/index.node.js';
import { client, json, mockFetch } from './helpers.js';

const KEY = 'bulk-outage-key-41d9';
const docs = (n: number, prefix = 'doc') =>
  Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${i}`,
    semantic_identifier: `Doc ${i}`,
    sections: [{ text: `text ${i}` }],
    metadata: {},
  }));

describe('ingestMany through outages', () => {
  it('pauses while the server is down and resumes by itself when it is back: nothing lost', async () => {
    const server = await startLoopback({ delayMs: 2 }, KEY);
    try {
      const kis = createKisClient({ baseUrl: server.url, apiKey: KEY, logLevel: 'off' });
      const seen: IngestProgress[] = [];
      let downAt = 0;
      let backAt = 0;
      let firstAckAfterBack = 0;
      const run = kis.ingestMany(docs(600), {
        onProgress: (p) => {
          seen.push(p);
          if (backAt && !firstAckAfterBack && p.created > 0) firstAckAfterBack = Date.now();
        },
        onResult: (r) => {
          if (r.status === 'created' && r.index === 150 && !downAt) {
            downAt = Date.now();
            void server.goDown().then(() =>
              setTimeout(() => {
                backAt = Date.now();
                void server.comeBack();
              }, 8_000),
            );
          }
        },
      });
      const failures: string[] = [];
      for await (const r of run) if (r.error) failures.push(`${r.status}: ${r.error.message}`);
      const s = await run.done();
      expect(failures).toEqual([]);
      expect(s.failed).toBe(0);
      // answers lost when the server went down are re-sent: upserts, counted as updated
      expect(s.created + s.updated).toBe(600);
      expect(server.docs.size).toBe(600);
      expect(s.stopped).toBeUndefined();
      expect(seen.some((p) => p.pausedSince !== undefined)).toBe(true);
      expect(s.pausedMs).toBeGreaterThan(1_000);
      // the return is noticed within seconds
      const firstAck = seen.find((p, i) => i > 0 && p.pausedSince === undefined && backAt > 0);
      expect(firstAck).toBeDefined();
    } finally {
      await server.close();
    }
  }, 60_000);

  it('stops after the outage limit with no document failed, and says why', async () => {
    const server = await startLoopback({ delayMs: 1 }, KEY);
    const kis = createKisClient({ baseUrl: server.url, apiKey: KEY, logLevel: 'off' });
    let down = false;
    const s = await kis
      .ingestMany(docs(300), {
        maxOutageMs: 1_000,
        onResult: (r) => {
          if (r.status === 'created' && !down) {
            down = true;
            void server.goDown(); // and never comes back
          }
        },
      })
      .done();
    expect(s.failed).toBe(0);
    expect(s.created).toBeGreaterThan(0);
    expect(s.aborted).toBeGreaterThan(0);
    expect(s.stopped?.reason).toBe('outage');
    expect(s.stopped?.message).toMatch(/has not answered successfully/);
    expect(server.docs.size).toBeGreaterThanOrEqual(s.created);
    await server.close();
  }, 30_000);
});

describe('ingestMany failures', () => {
  it('a 4xx other than 408, 409, 429 is final at once; a spent budget is final with the reason', async () => {
    const { fetch, calls } = mockFetch(() => json({ detail: 'document too large' }, 400));
    const s = await client(fetch).ingestMany(docs(5)).done();
    expect(s.failed).toBe(5);
    expect(s.retried).toBe(0);
    expect(s.stopped).toBeUndefined();
    expect(calls).toHaveLength(5);
    const busy = await startLoopback({ p503: 1 }, KEY);
    try {
      const kis = createKisClient({ baseUrl: busy.url, apiKey: KEY, logLevel: 'off' });
      const results = [];
      for await (const r of kis.ingestMany(docs(3), { retryForMs: 1_500 })) results.push(r);
      expect(results.map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);
      expect(results[0]?.error?.message).toMatch(/Gave up after \d+ attempts over \d+ s/);
      expect(results[0]?.attempts).toBeGreaterThan(1);
    } finally {
      await busy.close();
    }
  }, 30_000);

  it('a dry run validates each document and gives its id, sending nothing', async () => {
    const server = await startLoopback({}, KEY);
    try {
      const kis = createKisClient({ baseUrl: server.url, apiKey: KEY, logLevel: 'off' });
      const malformed = { semantic_identifier: 'Bad', sections: 'not a list', metadata: {} };
      const input: IngestionDocument[] = [
        ...docs(2),
        { semantic_identifier: 'No id / here', sections: [{ text: 'x' }], metadata: {} },
        malformed as unknown as IngestionDocument, // what an untyped JSONL line can hold
      ];
      const results = [];
      for await (const r of kis.ingestMany(input, { dryRun: true })) results.push(r);
      expect(results.map((r) => [r.status, r.documentId])).toEqual([
        ['valid', 'doc-0'],
        ['valid', 'doc-1'],
        ['valid', 'ingestion_api_No_id_%2F_here'],
        ['failed', null],
      ]);
      expect(server.requests).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('ingestMany when nothing can be reached, or when told to stop', () => {
  it('stops at once when no server was ever reached (a wrong port), storing nothing', async () => {
    const server = await startLoopback({}, KEY);
    const url = server.url;
    await server.close(); // the port now refuses connections
    const kis = createKisClient({ baseUrl: url, apiKey: KEY, logLevel: 'off' });
    const started = Date.now();
    const s = await kis.ingestMany(docs(20)).done();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(s.stopped?.reason).toBe('unreachable');
    expect(s.stopped?.message).toMatch(/ECONNREFUSED|refused/i);
    expect(APIConnectionError.isInstance(s.stopped?.error)).toBe(true);
    expect(s.stopped?.error?.code).toBe('ECONNREFUSED');
    expect(s.failed).toBe(0);
    expect(s.created).toBe(0);
    expect(s.aborted).toBe(s.total);
  });

  it('ends when it stops while an asynchronous source is waiting for work', async () => {
    const server = await startLoopback({}, KEY);
    try {
      const kis = createKisClient({ baseUrl: server.url, apiKey: 'not-the-key', logLevel: 'off' });
      // a source that gives one document, then waits for work that never comes (a queue)
      async function* waiting() {
        yield docs(1)[0] as IngestionDocument;
        await new Promise(() => undefined);
      }
      const s = await kis.ingestMany(waiting()).done();
      expect(s.stopped?.reason).toBe('refused');
      expect(s.failed).toBe(1);

      const graceful = kis.ingestMany(waiting());
      setTimeout(() => graceful.stop(), 50);
      expect((await graceful.done()).cancelled).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('stop() lets requests on the wire finish and ends the waiting ones as aborted', async () => {
    const server = await startLoopback({ delayMs: 50, p503: 0.5, seed: 3 }, KEY);
    try {
      const kis = createKisClient({ baseUrl: server.url, apiKey: KEY, logLevel: 'off' });
      const run = kis.ingestMany(docs(400), { concurrency: 8, adaptive: false });
      const results = [];
      for await (const r of run) {
        results.push(r);
        if (results.length === 20) run.stop();
      }
      const s = await run.summary;
      expect(s.total).toBeLessThan(400);
      expect(s.total).toBe(results.length);
      expect(s.failed).toBe(0);
      expect(s.aborted).toBeGreaterThan(0);
      // everything the server stored was reported stored: nothing cut off in flight
      expect(server.docs.size).toBe(s.created + s.updated);
    } finally {
      await server.close();
    }
  });
});
