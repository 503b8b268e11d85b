/**
 * A verification keeps nothing per document but the listed ids (8 bytes each, at most half the
 * table used) and capped failing ids: the heap kept at its last result must not grow with the
 * documents beyond that. N then 4N documents of a source are verified against a server in this
 * process, and the heap retained at each run's last result compared (bytes, not seconds; run
 * with --expose-gc, see vitest.config.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKisClient, verifyPair } from '../../src/index.node.js';

const N = 4_000;
/** The most heap a verification may keep per extra document: the id table's 16 bytes and slack. */
const BYTES_PER_DOCUMENT = 100;

/** The server's documents: `mem-0` … `mem-<count-1>`, each found by its own word. */
let count = 0;
let server: Server;
let baseUrl: string;

const pairRecord = {
  cc_pair_id: 2,
  id: 2,
  name: 'Memory',
  status: 'ACTIVE',
  access_type: 'public',
  credential: { id: 0, user_email: null },
  connector: { id: 1, name: 'Memory', source: 'file' },
  groups: [],
};

function answer(url: URL, body: string): unknown {
  const path = url.pathname.replace(/^\/api/, '');
  if (path === '/svc-api/connector-docs/2') {
    return Array.from({ length: count }, (_, i) => ({
      document_id: `mem-${i}`,
      semantic_id: `Memory ${i}`,
      link: null,
    }));
  }
  if (path === '/document/document-size-info') return { num_chunks: 1, num_tokens: 9 };
  if (path === '/admin/search') {
    const word = /memword(\d+)/.exec(JSON.parse(body).query as string)?.[1];
    return { documents: word === undefined ? [] : [{ document_id: `mem-${word}`, hidden: false }] };
  }
  if (path === '/search-settings/get-secondary-search-settings') return null;
  if (path === '/manage/admin/user-group') return [];
  if (path === '/manage/admin/connector/status') return [pairRecord];
  if (path.startsWith('/manage/admin/cc-pair/')) return pairRecord;
  if (path === '/me') return { id: 'u-1', email: 'API_KEY__memory@u-1.invalid' };
  return { detail: 'Not Found' };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.stringify(
        answer(new URL(req.url ?? '/', 'http://x'), Buffer.concat(chunks).toString('utf8')),
      );
      res.writeHead(body.includes('"Not Found"') ? 404 : 200, {
        'content-type': 'application/json',
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

function* documents(n: number) {
  for (let i = 0; i < n; i++) {
    yield {
      id: `mem-${i}`,
      semantic_identifier: `Memory ${i}`,
      sections: [{ text: `The memword${i} record of the memory test. `.repeat(4) }],
      source: 'file' as const,
      metadata: {},
    };
  }
}

const gc = (globalThis as { gc?: () => void }).gc;

async function retainedHeap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc?.();
  }
  return process.memoryUsage().heapUsed;
}

/** Verifies `n` documents; the heap kept at the last result, while the run still holds its state. */
async function heapAtEnd(n: number): Promise<number> {
  count = n;
  const kis = createKisClient({ baseUrl, apiKey: 'memory-test-key', logLevel: 'off' });
  const run = await verifyPair(kis, { ccPairId: 2, source: documents(n) });
  let seen = 0;
  let heap = 0;
  for await (const result of run) {
    expect(result.ok, JSON.stringify(result.reasons)).toBe(true);
    if (++seen === n) heap = await retainedHeap();
  }
  const summary = await run.summary;
  expect(summary.checked).toBe(n);
  expect(summary.checks.findable.passed).toBe(n);
  return heap;
}

describe('verifyPair keeps nothing per document but the listed ids', () => {
  it('runs with --expose-gc', () => {
    expect(typeof gc).toBe('function');
  });

  it('holds the heap flat from N to 4N documents', async () => {
    await heapAtEnd(N); // warm-up: compiled code, keep-alive connections
    const atN = await heapAtEnd(N);
    const at4N = await heapAtEnd(4 * N);
    expect((at4N - atN) / (3 * N)).toBeLessThan(BYTES_PER_DOCUMENT);
  });
});
