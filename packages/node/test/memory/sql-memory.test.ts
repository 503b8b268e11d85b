/**
 * The SQL source streams: while 10^5 rows of PostgreSQL go through `ingestMany`, the memory kept
 * (heap and typed arrays, after full collections) grows by a few bytes a row at most (the run's
 * set of ids seen, 8 bytes each), never by a row (bytes, not seconds; run with --expose-gc).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createKisClient } from '@kis/client';
import { startPostgres, type TestPostgres } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlSource } from '../../src/index.js';

const ROWS = 100_000;
const EARLY = 20_000;
/** The most memory a run may keep per row it streamed past `EARLY`. */
const BYTES_PER_ROW = 64;

const gc = (globalThis as { gc?: () => void }).gc;

/** Heap and array buffers kept after full collections. */
function kept(): number {
  gc?.();
  gc?.();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

let db: TestPostgres;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  db = await startPostgres();
  await db.sql(`CREATE TABLE articles AS
    SELECT n AS id, 'Article ' || n AS title, repeat('The text of article ' || n || '. ', 20) AS body,
           timestamptz '2024-01-01' + n * interval '1 second' AS updated_at
    FROM generate_series(1, ${ROWS}) AS n;`);
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // the release a client asks once (to read already_existed): no such route
      if (req.method === 'GET') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"detail":"Not Found"}');
        return;
      }
      const id = JSON.parse(Buffer.concat(chunks).toString('utf8')).document.id as string;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ document_id: id, already_existed: false }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}, 120_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await db?.close();
});

describe('an SQL source keeps no row past its answer', () => {
  it('runs with --expose-gc', () => {
    expect(typeof gc).toBe('function');
  });

  it(`streams ${ROWS} rows in bounded memory`, async () => {
    const kis = createKisClient({ baseUrl, apiKey: 'memory-test-key', logLevel: 'off' });
    const source = sqlSource({
      connection: db.url,
      table: 'articles',
      id: 'id',
      title: 'title',
      text: 'body',
      updatedAt: 'updated_at',
    });
    let done = 0;
    let early = 0;
    let late = 0;
    const summary = await kis
      .ingestMany(source, {
        onResult: () => {
          done++;
          if (done === EARLY) early = kept();
          if (done === ROWS - 1_000) late = kept();
        },
      })
      .done();
    expect(summary.created).toBe(ROWS);
    const perRow = (late - early) / (ROWS - 1_000 - EARLY);
    expect(perRow).toBeLessThan(BYTES_PER_ROW);
  });
});
