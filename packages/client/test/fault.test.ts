import { startLoopback } from '@kis/test-support';
import { describe, expect, it } from 'vitest';
import {
  createKisClient as createFetchClient,
  deriveDocumentId,
  type IngestResult,
} from '../src/index.js';
import { createKisClient as createNodeClient } from '../src/index.node.js';

const KEY = 'fault-test-key-7f3a';

// every fault, through both senders: node:http (the default under Node) and fetch
describe.each([
  ['node:http', createNodeClient],
  ['fetch', createFetchClient],
])('ingestMany (%s) against a faulty loopback server', (_sender, createKisClient) => {
  /** A client with its defaults, as users get it (only the log is silenced). */
  const defaultClient = (baseUrl: string, options: { timeoutMs?: number } = {}) =>
    createKisClient({ baseUrl, apiKey: KEY, logLevel: 'off', ...options });

  it('503 10 %, 429 5 %, dropped connections 2 %: every document stored exactly once, summary = server state', async () => {
    const server = await startLoopback(
      { p503: 0.1, p429: 0.05, pDropBefore: 0.01, pDropAfter: 0.01, delayMs: 1, seed: 42 },
      KEY,
    );
    try {
      const kis = defaultClient(server.url);
      const N = 1500;
      // no ids: the client must fix them (the derived id) for retries to be upserts
      const docs = Array.from({ length: N }, (_, i) => ({
        semantic_identifier: `Report ${i} / final`,
        sections: [{ text: `text ${i}` }],
        source: 'file' as const,
        metadata: { n: String(i) },
      }));
      const results: IngestResult[] = [];
      const run = kis.ingestMany(docs, { ccPairId: 1 });
      for await (const r of run) results.push(r);
      const s = await run.summary;

      expect(s.failed).toBe(0);
      expect(s.total).toBe(N);
      expect(server.docs.size).toBe(N);
      const expectedIds = new Set(docs.map((d) => deriveDocumentId(d.semantic_identifier)));
      expect(new Set(server.docs.keys())).toEqual(expectedIds);
      expect(new Set(results.map((r) => r.documentId))).toEqual(expectedIds);
      // summary equals the server's state: a document counts "updated" when the answer of an
      // attempt that stored it was lost and the retry found it (or a hedge of a late answer did)
      expect(s.created + s.updated).toBe(server.docs.size);
      expect(s.updated).toBeGreaterThanOrEqual(server.lostAfterStore.size);
      expect(s.updated - server.lostAfterStore.size).toBeLessThanOrEqual(s.hedged);
      expect(server.lostAfterStore.size).toBeGreaterThan(0);
      expect(s.retried).toBeGreaterThan(N * 0.1);
      for (const d of server.docs.values()) expect(d.body.cc_pair_id).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('answers cut off or stalled half-way are retried: stored once, summary = server state', async () => {
    const server = await startLoopback({ pCutBody: 0.05, pStallBody: 0.05, seed: 7 }, KEY);
    try {
      // stalled answers end by the per-attempt time-out: only it is shortened, to end the test soon
      const kis = defaultClient(server.url, { timeoutMs: 300 });
      const N = 400;
      const docs = Array.from({ length: N }, (_, i) => ({
        id: `cut-${i}`,
        semantic_identifier: `Cut ${i}`,
        sections: [{ text: `text ${i}` }],
        metadata: {},
      }));
      const results: IngestResult[] = [];
      const run = kis.ingestMany(docs);
      for await (const r of run) results.push(r);
      const s = await run.summary;
      expect(s.failed).toBe(0);
      expect(results).toHaveLength(N);
      expect(server.docs.size).toBe(N);
      expect(server.lostAfterStore.size).toBeGreaterThan(0);
      // each cut or stalled answer was a failed attempt, retried: the retry found the document;
      // a late answer may also be hedged, and the hedge find the document its first copy stored
      expect(s.created + s.updated).toBe(N);
      expect(s.updated).toBeGreaterThanOrEqual(server.lostAfterStore.size);
      expect(s.updated - server.lostAfterStore.size).toBeLessThanOrEqual(s.hedged);
    } finally {
      await server.close();
    }
  });
});
