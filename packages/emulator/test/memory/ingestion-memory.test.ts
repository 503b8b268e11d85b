/**
 * Nothing per document stays in the emulator's heap: the heap kept after a full collection must
 * not grow with the documents it has stored (they live in SQLite). N documents, then 4N more, are
 * ingested over HTTP; the heap retained after each is compared (bytes, not seconds; run with
 * --expose-gc, see vitest.config.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/index.js';

const N = 2_000;
/** The most heap the emulator may keep per extra document stored. */
const BYTES_PER_DOCUMENT = 48;

let emulator: Emulator;
let dir: string;
let next = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kis-emulator-memory-'));
  emulator = await startEmulator({ dbPath: join(dir, 'memory.db') });
});
afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Ingests `count` new documents, eight requests at a time. */
async function ingest(count: number): Promise<void> {
  const end = next + count;
  const send = async () => {
    while (next < end) {
      const n = next++;
      const response = await fetch(`${emulator.baseUrl}/svc-api/ingestion`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${emulator.adminKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          document: {
            id: `memory-${n}`,
            semantic_identifier: `Memory ${n}`,
            sections: [{ text: `The body of document ${n}, alpha beta gamma.` }],
            source: 'file',
            metadata: { tag: String(n % 7) },
          },
        }),
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 8 }, send));
}

function retainedHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc (vitest.config.ts)');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

it('keeps no heap per document it stores', async () => {
  await ingest(N); // warms up the statements, the validators and the HTTP server
  const before = retainedHeap();
  await ingest(4 * N);
  const after = retainedHeap();
  expect(emulator.stats().ingestion.acknowledged).toBe(5 * N);
  expect((after - before) / (4 * N)).toBeLessThan(BYTES_PER_DOCUMENT);
});
