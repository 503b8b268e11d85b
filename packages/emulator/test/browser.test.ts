// What browsers get from the emulator: the HTML API reference at /docs (rendered by @kis/spec with
// `redocly build-docs`), and CORS answers that let @kis/client run in a page (apps/web).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index.js';
import { spec, start } from './helpers.js';

let emulator: Emulator;

beforeAll(async () => {
  ({ emulator } = await start());
});
afterAll(async () => {
  await emulator.close();
});

const operations = Object.values(spec.paths).flatMap((item) =>
  Object.values(item).filter(
    (o): o is { operationId: string; summary: string } =>
      typeof o === 'object' && o !== null && typeof o.operationId === 'string',
  ),
);

describe('API reference (GET /docs)', () => {
  it('serves the reference shipped by @kis/spec, without an API key', async () => {
    const r = await fetch(`${emulator.url}/docs`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await r.text();
    const shipped = readFileSync(
      createRequire(import.meta.url).resolve('@kis/spec/reference.html'),
      'utf8',
    );
    expect(html).toBe(shipped);
    expect(html).toContain('<title>Knowledge Indexing Service API reference</title>');
    expect((await fetch(`${emulator.url}/docs/`)).status).toBe(200);
  });

  it('names every operation of the spec, and loads no script or style from elsewhere', async () => {
    const html = await (await fetch(`${emulator.url}/docs`)).text();
    expect(operations.length).toBeGreaterThanOrEqual(10);
    for (const op of operations) {
      expect(html, op.operationId).toContain(op.operationId);
      expect(html, op.operationId).toContain(op.summary);
    }
    expect(html).not.toMatch(/<script[^>]+\bsrc=/i);
    expect(html).not.toMatch(/<link[^>]+\bhref="(https?:)?\/\//i);
  });

  it('other paths under /docs stay 404', async () => {
    const r = await fetch(`${emulator.url}/docs/nothing`);
    expect(r.status).toBe(404);
  });
});

describe('CORS for @kis/client in a browser', () => {
  it('a preflight with the headers the client sends is allowed for --cors-origin', async () => {
    const origin = 'http://127.0.0.1:4173';
    const withCors = await start({ corsOrigin: origin });
    try {
      const r = await fetch(`${withCors.emulator.baseUrl}/manage/admin/credential`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization,x-kis-retry-count',
        },
      });
      expect(r.status).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe(origin);
      const allowed = (r.headers.get('access-control-allow-headers') ?? '')
        .toLowerCase()
        .split(/\s*,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'x-kis-retry-count']));
    } finally {
      await withCors.emulator.close();
    }
  });
});
