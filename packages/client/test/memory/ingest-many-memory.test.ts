/**
 * Nothing per document outlives its answer: the heap kept after a full garbage collection must
 * not grow with the number of documents a run has streamed. Each case streams N documents, then
 * 4N, through `ingestMany` against a server in this process, and compares the heap retained after
 * each (bytes, not seconds; run with --expose-gc, see vitest.config.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKisClient, type IngestManyOptions } from '../../src/index.node.js';

const N = 1_500;
/** The most heap a run may keep per extra document it streamed. */
const BYTES_PER_DOCUMENT = 200;

type Fault = 'none' | 'mix';

interface Sink {
  url: string;
  fault: Fault;
  seen: number;
  close(): Promise<void>;
}

/** Deterministic PRNG (mulberry32), so a failing case replays the same faults. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function answer(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

/**
 * An ingestion endpoint. In `mix`: 10 % 503, 5 % 429 (`Retry-After: 0`), 1 % connection resets
 * (half after storing), and 0.3 % answers held for 1.5 s, which the run hedges.
 */
async function startSink(): Promise<Sink> {
  const random = prng(21);
  const sink: Sink = { url: '', fault: 'none', seen: 0, close: async () => undefined };
  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    // the release a client asks once (to read already_existed): no such route
    if (req.method === 'GET') return answer(res, 404, { detail: 'Not Found' });
    sink.seen++;
    const id = JSON.parse(raw.toString('utf8')).document.id as string;
    const stored = () => answer(res, 200, { document_id: id, already_existed: false });
    if (sink.fault === 'none') return stored();
    const r = random();
    if (r < 0.1) return answer(res, 503, { detail: 'busy' });
    if (r < 0.15) return answer(res, 429, { detail: 'slow down' }, { 'retry-after': '0' });
    if (r < 0.16) return req.socket.destroy();
    if (r < 0.163) return void setTimeout(stored, 1_500).unref();
    return stored();
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  sink.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return sink;
}

function* documents(count: number, from: number) {
  for (let i = from; i < from + count; i++) {
    yield {
      id: `mem-${i}`,
      semantic_identifier: `Document ${i}`,
      sections: [{ text: `The text of document ${i}. `.repeat(6) }],
      source: 'file' as const,
      metadata: { n: String(i) },
    };
  }
}

const gc = (globalThis as { gc?: () => void }).gc;

/** The heap kept after full collections (a few, so finalizers and weak maps settle). */
async function retainedHeap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc?.();
  }
  return process.memoryUsage().heapUsed;
}

let sink: Sink;
beforeAll(async () => {
  sink = await startSink();
});
afterAll(() => sink.close());

/** Streams N then 4N documents; the heap kept per extra document. */
async function perExtraDocument(fault: Fault, options: IngestManyOptions): Promise<number> {
  sink.fault = fault;
  const kis = createKisClient({ baseUrl: sink.url, apiKey: 'memory-test-key', logLevel: 'off' });
  let next = 0;
  const stream = async (count: number) => {
    const summary = await kis.ingestMany(documents(count, next), options).done();
    next += count;
    expect(summary.created + summary.updated).toBe(count);
  };
  // warm-up: compiled code, the limiter's samples, and the keep-alive connections, which undici
  // opens up to about twice the concurrency (a connection is handed out again a turn after its
  // answer) and keeps: bounded by the concurrency, not by the documents
  await stream(4 * N);
  await stream(N);
  const afterN = await retainedHeap();
  await stream(4 * N);
  const after4N = await retainedHeap();
  // a run the caller aborts half-way keeps nothing either; the heap moves by about ±0.5 MB
  // between collections whatever the count, so the aborted run is long enough to see past that
  const controller = new AbortController();
  const half = 8 * N;
  const aborted = kis.ingestMany(documents(2 * half, next), {
    ...options,
    signal: controller.signal,
  });
  let seen = 0;
  for await (const _ of aborted) if (++seen === half) controller.abort();
  const afterAbort = await retainedHeap();
  expect((afterAbort - after4N) / half).toBeLessThan(BYTES_PER_DOCUMENT);
  return (after4N - afterN) / (3 * N);
}

describe('ingestMany keeps nothing per document after its answer', () => {
  it('runs with --expose-gc', () => {
    expect(typeof gc).toBe('function');
  });

  it('with the defaults', async () => {
    expect(await perExtraDocument('none', {})).toBeLessThan(BYTES_PER_DOCUMENT);
  });

  it('at a fixed concurrency', async () => {
    const fixed = { concurrency: 8, adaptive: false };
    expect(await perExtraDocument('none', fixed)).toBeLessThan(BYTES_PER_DOCUMENT);
  });

  it('through faults: retries, resets, hedged slow answers', async () => {
    const before = sink.seen;
    expect(await perExtraDocument('mix', {})).toBeLessThan(BYTES_PER_DOCUMENT);
    // the mix was played: more requests than documents (retries and hedges)
    expect(sink.seen - before).toBeGreaterThan(7 * N);
  });
});
