import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index.js';
import { connectorBody, doc, start } from './helpers.js';

type Call = Awaited<ReturnType<typeof start>>['call'];

let emulator: Emulator;
let call: Call;

beforeEach(async () => {
  ({ emulator, call } = await start({ indexing: { paused: true }, tasks: { paused: true } }));
});
afterEach(async () => {
  await emulator.close();
});

async function page(): Promise<{ status: number; type: string | null; html: string }> {
  const r = await fetch(`${emulator.url}/`);
  return { status: r.status, type: r.headers.get('content-type'), html: await r.text() };
}

describe('admin page (GET /)', () => {
  it('lists fully created connectors with pairs and document counts, credentials and recent documents', async () => {
    const c = await call<{ id: number }>('POST', '/manage/admin/connector', {
      json: connectorBody({ name: 'Docs site', source: 'web', connector_specific_config: {} }),
    });
    const pair = await call<{ data: number }>(
      'PUT',
      `/manage/admin/connector/${c.body.id}/credential/0`,
    );
    await call('POST', '/manage/credential', {
      json: {
        credential_json: { token: 'very-secret-token' },
        admin_public: true,
        source: 'jira',
        name: 'Jira bot',
      },
    });
    await call('POST', '/svc-api/ingestion', {
      json: {
        document: doc({ id: 'p-1', semantic_identifier: 'Page one' }),
        cc_pair_id: pair.body.data,
      },
    });
    await call('POST', '/svc-api/ingestion', {
      json: {
        document: doc({ id: 'p-2', semantic_identifier: 'Page two' }),
        cc_pair_id: pair.body.data,
      },
    });

    const r = await page();
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/html/);
    expect(r.html).toContain('Profile: <strong class="profile">seed</strong>');
    expect(r.html).toContain('Docs site');
    // the background work is paused: the new pair waits for its first index attempt
    expect(r.html).toContain(
      `pair ${pair.body.data} (credential 0, public, SCHEDULED): 2 documents, no index attempt yet`,
    );
    expect(r.html).toContain('Jira bot');
    expect(r.html).toContain('Page one');
    expect(r.html).toContain('<span class="state queued">queued</span>');
    expect(r.html).not.toContain('very-secret-token');
    // self-contained: no script or image, and its one link is its inline icon
    expect(r.html).not.toMatch(/<(script|img)\b/i);
    expect(r.html.match(/<link\b[^>]*>/gi)).toEqual([
      expect.stringMatching(/^<link rel="icon" href="data:image\/svg\+xml,/),
    ]);

    emulator.indexer.drain();
    expect((await page()).html).toContain('<span class="state indexed">indexed</span>');
  });

  it('escapes every value', async () => {
    await call('POST', '/svc-api/ingestion', {
      json: { document: doc({ id: 'x', semantic_identifier: '<script>alert("x")</script> & co' }) },
    });
    const r = await page();
    expect(r.html).not.toContain('<script>alert');
    expect(r.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co');
  });
});

describe('state view and control calls', () => {
  it('GET /_emulator/state: limit, full content, and 400 on a bad limit', async () => {
    for (let i = 0; i < 3; i++) {
      await call('POST', '/svc-api/ingestion', { json: { document: doc({ id: `d${i}` }) } });
    }
    const limited = await (await fetch(`${emulator.url}/_emulator/state?limit=2`)).json();
    expect(limited.documents_total).toBe(3);
    expect(limited.documents.map((d: { id: string }) => d.id)).toEqual(['d2', 'd1']);
    expect(limited.documents[0].sections).toBeUndefined();
    const all = await (await fetch(`${emulator.url}/_emulator/state?limit=all&full=1`)).json();
    expect(all.documents).toHaveLength(3);
    expect(all.documents[0].sections).toEqual([
      { text: 'Some text', link: 'https://example.com/a' },
    ]);
    expect((await fetch(`${emulator.url}/_emulator/state?limit=-3`)).status).toBe(400);
    const one = await fetch(`${emulator.url}/_emulator/documents/d1`);
    expect(await one.json()).toMatchObject({ id: 'd1', index_state: 'queued' });
    expect((await fetch(`${emulator.url}/_emulator/documents/none`)).status).toBe(404);
  });

  it('POST /_emulator/indexing/{pause,resume,drain} and /_emulator/reset (admin key)', async () => {
    const headers = { authorization: `Bearer ${emulator.adminKey}` };
    await call('POST', '/svc-api/ingestion', { json: { document: doc({ id: 'q' }) } });
    const drained = await fetch(`${emulator.url}/_emulator/indexing/drain`, {
      method: 'POST',
      headers,
    });
    expect(await drained.json()).toEqual({ paused: true, queued: 0, indexed: 1, total: 1 });
    const resumed = await fetch(`${emulator.url}/_emulator/indexing/resume`, {
      method: 'POST',
      headers,
    });
    expect((await resumed.json()).paused).toBe(false);
    expect(
      (await fetch(`${emulator.url}/_emulator/indexing/explode`, { method: 'POST', headers }))
        .status,
    ).toBe(404);

    await call('POST', '/manage/admin/connector', { json: connectorBody() });
    const reset = await fetch(`${emulator.url}/_emulator/reset`, { method: 'POST', headers });
    expect(reset.status).toBe(200);
    expect(emulator.state.indexing().total).toBe(0);
    expect(emulator.state.connectors({ all: true }).map((c) => c.id)).toEqual([0]);
    expect(emulator.state.pairs().map((p) => p.id)).toEqual([1]);
    const created = await call<{ id: number }>('POST', '/manage/admin/connector', {
      json: connectorBody(),
    });
    expect(created.body.id).toBe(1);
  });
});

describe('options', () => {
  it('--latency-ms adds service time to each ingestion request', async () => {
    const slow = await start({ latencyMs: 120 });
    try {
      const t0 = performance.now();
      const r = await slow.call('POST', '/svc-api/ingestion', { json: { document: doc() } });
      expect(r.status).toBe(200);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(115);
    } finally {
      await slow.emulator.close();
    }
  });

  it('CORS is off by default and answers preflights for --cors-origin', async () => {
    const preflight = (url: string) =>
      fetch(`${url}/svc-api/ingestion`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
    const off = await preflight(emulator.baseUrl);
    expect(off.headers.get('access-control-allow-origin')).toBeNull();
    const withCors = await start({ corsOrigin: 'http://localhost:5173' });
    try {
      const on = await preflight(withCors.emulator.baseUrl);
      expect(on.status).toBe(204);
      expect(on.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(on.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
    } finally {
      await withCors.emulator.close();
    }
  });

  it('a file database keeps its state across restarts, in WAL mode', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'kis-emulator-db-'));
    try {
      const dbPath = join(dir, 'state.db');
      const first = await start({ dbPath });
      await first.call('POST', '/manage/admin/connector', { json: connectorBody() });
      await first.call('POST', '/svc-api/ingestion', { json: { document: doc({ id: 'kept' }) } });
      await first.emulator.close();
      const second = await start({ dbPath });
      try {
        expect(second.emulator.state.document('kept')).toBeDefined();
        expect(second.emulator.state.connectors({ all: true })).toHaveLength(2);
        await second.emulator.indexer.idle();
        expect(second.emulator.state.document('kept')?.index_state).toBe('indexed');
      } finally {
        await second.emulator.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
