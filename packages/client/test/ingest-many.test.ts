import { setMaxListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  contentHash,
  deriveDocumentId,
  type IngestProgress,
  type IngestResult,
} from '../src/index.js';
import { type Call, client, doc, json, memoryJournal, mockFetch } from './helpers.js';

const ok = (c: Call) =>
  json({
    already_existed: false,
    document_id: (c.body as { document: { id: string } }).document.id,
  });

describe('ingestMany', () => {
  it('yields one result per document and a summary; a failure never stops the rest', async () => {
    const { fetch } = mockFetch((c) => {
      const id = (c.body as { document: { id: string } }).document.id;
      if (id === 'doc-3') return json({ detail: 'bad pair' }, 404);
      return json({ already_existed: id === 'doc-5', document_id: id });
    });
    const kis = client(fetch);
    const items = [
      ...Array.from({ length: 8 }, (_, i) => ({ document: doc(i), ref: `in.jsonl:${i + 1}` })),
      { document: { ...doc(8), sections: 'oops' }, ref: 'in.jsonl:9' },
    ];
    const run = kis.ingestMany(items as never, { ccPairId: 2, concurrency: 3 });
    const results: IngestResult[] = [];
    for await (const r of run) results.push(r);
    const s = await run.summary;
    expect(results).toHaveLength(9);
    expect(new Set(results.map((r) => r.index))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8]));
    const byRef = Object.fromEntries(results.map((r) => [r.ref, r]));
    expect(byRef['in.jsonl:4']).toMatchObject({
      status: 'failed',
      documentId: 'doc-3',
      attempts: 1,
    });
    expect(byRef['in.jsonl:4']?.error?.status).toBe(404);
    expect(byRef['in.jsonl:6']).toMatchObject({ status: 'updated' });
    expect(byRef['in.jsonl:9']).toMatchObject({ status: 'failed', attempts: 0, documentId: null });
    expect(byRef['in.jsonl:9']?.error?.message).toContain(
      '(in.jsonl:9): document.sections: must be array',
    );
    expect(byRef['in.jsonl:1']).toMatchObject({
      status: 'created',
      ccPairId: 2,
      documentId: 'doc-0',
    });
    expect(s).toMatchObject({
      total: 9,
      created: 6,
      updated: 1,
      failed: 2,
      skipped: 0,
      aborted: 0,
      retried: 0,
      cancelled: false,
    });
    expect(s.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('respects the concurrency bound and pulls from the source only as slots free', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    let completed = 0;
    let pulled = 0;
    let maxAhead = 0;
    const { fetch } = mockFetch(async (c) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      completed++;
      return ok(c);
    });
    function* source() {
      for (let i = 0; i < 300; i++) {
        pulled++;
        maxAhead = Math.max(maxAhead, pulled - completed);
        yield doc(i);
      }
    }
    const s = await client(fetch).ingestMany(source(), { concurrency: 5 }).done();
    expect(s.created).toBe(300);
    expect(maxInFlight).toBe(5);
    expect(maxAhead).toBeLessThanOrEqual(6);
  });

  it('accepts async iterables and per-item ccPairId; derives ids for documents without one', async () => {
    const { fetch, calls } = mockFetch(ok);
    async function* source() {
      yield { document: { ...doc(1), id: undefined, semantic_identifier: 'A b/c' }, ccPairId: 9 };
      yield doc(2);
    }
    const results: IngestResult[] = [];
    const s = await client(fetch)
      .ingestMany(source() as never, { ccPairId: 3, onResult: (r) => results.push(r) })
      .done();
    expect(s.created).toBe(2);
    const bodies = calls.map((c) => c.body as { cc_pair_id?: number; document: { id: string } });
    expect(bodies.find((b) => b.cc_pair_id === 9)?.document.id).toBe('ingestion_api_A b/c');
    expect(bodies.find((b) => b.cc_pair_id === 3)?.document.id).toBe('doc-2');
    expect(results.map((r) => r.documentId).sort()).toEqual(
      ['doc-2', 'ingestion_api_A b/c'].sort(),
    );
    expect(deriveDocumentId('A b/c')).toBe('ingestion_api_A_b%2Fc');
  });

  it('documents waiting to retry add no listener each to the run signal, and cancel ends their waits', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const { fetch, calls } = mockFetch(() => json({ detail: 'bad gateway' }, 502));
      const ac = new AbortController();
      const run = client(fetch, {
        maxRetries: 3,
        backoff: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
      }).ingestMany(
        Array.from({ length: 40 }, (_, i) => doc(i)),
        { concurrency: 40, signal: ac.signal },
      );
      const summary = run.done();
      // every document answered 502 once and is now in its (one-minute) backoff wait
      for (let i = 0; i < 1000 && calls.length < 40; i++)
        await new Promise((r) => setTimeout(r, 1));
      expect(calls).toHaveLength(40);
      const t = Date.now();
      ac.abort();
      const s = await summary;
      expect(Date.now() - t).toBeLessThan(5_000);
      expect(s).toMatchObject({ cancelled: true, aborted: 40, created: 0, failed: 0 });
      await new Promise((r) => setImmediate(r));
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('slows down on a burst of 429s, stores every document, and grows back', async () => {
    let n = 0;
    const seen: IngestProgress[] = [];
    const { fetch } = mockFetch(async (c) => {
      const k = ++n;
      // 20 ms of service: a loaded machine's timer jitter stays within the limiter's tolerance
      await new Promise((r) => setTimeout(r, 20));
      if (k > 20 && k <= 40) return json({ detail: 'slow down' }, 429, { 'retry-after-ms': '1' });
      return ok(c);
    });
    const s = await client(fetch)
      .ingestMany(
        Array.from({ length: 1200 }, (_, i) => doc(i)),
        { concurrency: 16, minConcurrency: 1, onProgress: (p) => seen.push(p) },
      )
      .done();
    expect(s.created).toBe(1200);
    expect(s.failed).toBe(0);
    expect(s.retried).toBeGreaterThanOrEqual(20);
    const limits = seen.map((p) => p.concurrency);
    const lowest = Math.min(...limits);
    expect(lowest).toBeLessThan(16);
    // grows back after the burst (judged over the rest of the run, not its last sample, which
    // a loaded CI machine may catch in a dip)
    expect(Math.max(...limits.slice(limits.indexOf(lowest)))).toBeGreaterThan(lowest);
    for (const p of seen) expect(p.inFlight).toBeLessThanOrEqual(16);
  });

  it('cancellation by AbortSignal: no new requests, in-flight reported aborted, nothing double-counted', async () => {
    const ac = new AbortController();
    let started = 0;
    const { fetch } = mockFetch(async (c) => {
      started++;
      if (started === 20) setTimeout(() => ac.abort(), 0);
      await new Promise((r) => setTimeout(r, 5));
      return ok(c);
    });
    // a fetch that follows the signal as undici does (which also lifts the listener limit of
    // a signal it follows: requests share one per short window)
    const abortable: typeof globalThis.fetch = (input, init) =>
      new Promise((resolve, reject) => {
        if (init?.signal) setMaxListeners(1500, init.signal);
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('aborted', 'AbortError')),
        );
        fetch(input, init).then(resolve, reject);
      });
    let pulled = 0;
    function* source() {
      for (let i = 0; i < 1000; i++) {
        pulled++;
        yield doc(i);
      }
    }
    const results: IngestResult[] = [];
    const run = client(abortable).ingestMany(source(), { concurrency: 4, signal: ac.signal });
    for await (const r of run) results.push(r);
    const s = await run.done();
    const startedAtAbort = started;
    await new Promise((r) => setTimeout(r, 30));
    expect(started).toBe(startedAtAbort); // nothing started after the run ended
    expect(s.cancelled).toBe(true);
    expect(s.aborted).toBeGreaterThan(0);
    expect(results).toHaveLength(pulled); // every pulled document has exactly one result
    expect(new Set(results.map((r) => r.index)).size).toBe(results.length);
    expect(s.total).toBe(results.length);
    expect(s.created + s.aborted).toBe(s.total);
    expect(pulled).toBeLessThan(1000);
    for (const r of results.filter((x) => x.status === 'aborted'))
      expect(r.error?.name).toBe('APIUserAbortError');
  });

  it('leaving the loop early cancels the run', async () => {
    const { fetch, calls } = mockFetch(ok);
    const run = client(fetch).ingestMany(
      Array.from({ length: 500 }, (_, i) => doc(i)),
      { concurrency: 2 },
    );
    let seen = 0;
    for await (const _r of run) if (++seen === 5) break;
    const s = await run.summary;
    expect(s.cancelled).toBe(true);
    expect(calls.length).toBeLessThan(50);
  });

  it('a throwing source rejects done() after in-flight documents finish', async () => {
    const { fetch } = mockFetch(ok);
    const results: IngestResult[] = [];
    function* source() {
      yield doc(1);
      yield doc(2);
      throw new Error('export.jsonl:3: not JSON');
    }
    await expect(
      client(fetch)
        .ingestMany(source(), { onResult: (r) => results.push(r) })
        .done(),
    ).rejects.toThrow('export.jsonl:3: not JSON');
    expect(results.map((r) => r.status)).toEqual(['created', 'created']);
  });

  it('rejects bad options and sources with clear errors', () => {
    const kis = client(mockFetch(ok).fetch);
    expect(() => kis.ingestMany([], { concurrency: 0 })).toThrow(
      /concurrency must be an integer ≥ 1/,
    );
    expect(() => kis.ingestMany([], { ccPairId: -2 })).toThrow(/ccPairId must be an integer ≥ 0/);
    expect(() => kis.ingestMany(42 as never)).toThrow(/Iterable or AsyncIterable/);
    const run = kis.ingestMany([]);
    void run.done();
    expect(() => run[Symbol.asyncIterator]()).toThrow(/iterate the run before calling done/);
  });
});

describe('journal (resume)', () => {
  it('a re-run skips acknowledged documents with the same content and re-sends changed ones', async () => {
    const { fetch, calls } = mockFetch(ok);
    const kis = client(fetch);
    const docs = Array.from({ length: 10 }, (_, i) => doc(i));
    const { journal, acked } = memoryJournal();
    expect((await kis.ingestMany(docs, { journal, ccPairId: 1 }).done()).created).toBe(10);
    expect(calls).toHaveLength(10);
    expect(acked.size).toBe(10);
    const changed = docs.map((d, i) => (i === 4 ? { ...d, sections: [{ text: 'new text' }] } : d));
    const s = await kis.ingestMany(changed, { journal, ccPairId: 1 }).done();
    expect(s).toMatchObject({ skipped: 9, created: 1 });
    expect(calls).toHaveLength(11);
    // the pair id is part of the content: another pair re-sends everything
    const s2 = await kis.ingestMany(changed, { journal, ccPairId: 2 }).done();
    expect(s2.created).toBe(10);
    const entry = acked.get(docs[0]?.id as string);
    expect(Object.keys(entry ?? {}).sort()).toEqual([
      'at',
      'ccPairId',
      'hash',
      'id',
      'status',
      'updatedAt',
    ]);
    // the hash is the content's as given: the stamp sent with a timeless document is kept apart
    expect(entry?.hash).toBe(await contentHash({ document: docs[0], cc_pair_id: 2 }));
  });
});
