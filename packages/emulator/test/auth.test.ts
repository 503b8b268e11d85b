import { servedOn } from '@kis/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index.js';
import { startEmulator } from '../src/index.js';
import { client, doc, spec } from './helpers.js';

const ADMIN = 'test-admin-key-0001';
const USER = 'test-user-key-0001';
const USER2 = 'test-user-key-0002';

let emulator: Emulator;
let call: ReturnType<typeof client>;
const errors: unknown[] = [];

beforeAll(async () => {
  emulator = await startEmulator({
    adminKey: ADMIN,
    userKeys: [USER, USER2],
    logError: (e) => errors.push(e),
  });
  call = client(emulator);
});
afterAll(async () => {
  await emulator.close();
});

/** One request per operation of the spec that needs a key, with concrete paths. */
function everyOperation(): { method: string; path: string; id: string }[] {
  const out: { method: string; path: string; id: string }[] = [];
  for (const [template, item] of Object.entries(spec.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method] as { security?: unknown[]; operationId?: string } | undefined;
      if (op === undefined || op.security?.length === 0) continue;
      const path = template.replace(/\{[^}]+\}/g, '1');
      out.push({ method: method.toUpperCase(), path, id: op.operationId ?? '' });
    }
  }
  return out;
}

describe('bearer keys', () => {
  it("the spec has fifty-eight operations that need a key; each the seed's kind serves is routed (401 without a key, never 404)", async () => {
    const ops = everyOperation();
    expect(ops).toHaveLength(58);
    // release 4.6.1's set-curator call is not a route of the seed's kind: FastAPI's 404, keyless
    const absent = ops.filter((op) => !servedOn('seed', op.id));
    expect(absent.map((op) => op.id)).toEqual(['setUserGroupCurator']);
    for (const op of absent) {
      expect((await call(op.method, op.path, { key: null })).status).toBe(404);
    }
    for (const op of ops.filter((o) => servedOn('seed', o.id))) {
      const r = await call<{ detail: string }>(op.method, op.path, { key: null });
      expect(r.status, `${op.method} ${op.path}`).toBe(401);
      expect(typeof r.body.detail).toBe('string');
    }
  });

  it('GET /version needs no key', async () => {
    const r = await call('GET', '/version', { key: null });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ backend_version: emulator.version });
  });

  it('an unknown key or a malformed header: 401', async () => {
    expect((await call('GET', '/svc-api/ingestion', { key: 'not-a-known-key' })).status).toBe(401);
    const basic = await call('GET', '/svc-api/ingestion', {
      key: null,
      headers: { authorization: `Basic ${ADMIN}` },
    });
    expect(basic.status).toBe(401);
  });

  it('a non-admin key on /manage/admin/*: 403 { detail }', async () => {
    const admin = (o: { path: string; id: string }) =>
      o.path.startsWith('/manage/admin/') && servedOn('seed', o.id);
    for (const op of everyOperation().filter(admin)) {
      const r = await call<{ detail: string }>(op.method, op.path, { key: USER });
      expect(r.status, `${op.method} ${op.path}`).toBe(403);
      expect(r.body.detail).toMatch(/admin/);
    }
  });

  it('non-admin keys (several) may ingest, list and upload', async () => {
    const r = await call('POST', '/svc-api/ingestion', { key: USER, json: { document: doc() } });
    expect(r.status).toBe(200);
    expect((await call('GET', '/svc-api/ingestion', { key: USER2 })).status).toBe(200);
    expect((await call('GET', '/svc-api/connector-docs/1', { key: USER2 })).status).toBe(200);
  });

  it('authentication comes before validation (no 422 for an anonymous caller)', async () => {
    const r = await call('POST', '/svc-api/ingestion', { key: null, json: { nonsense: true } });
    expect(r.status).toBe(401);
  });

  it('keys never appear in answers or in the state view', async () => {
    const bodies = [
      (await call('GET', '/manage/admin/credential')).text,
      (await call('POST', '/svc-api/ingestion', { key: 'wrong-key-123' })).text,
      await (await fetch(`${emulator.url}/_emulator/state`)).text(),
      await (await fetch(`${emulator.url}/`)).text(),
    ];
    for (const text of bodies) {
      expect(text).not.toContain(ADMIN);
      expect(text).not.toContain(USER);
      expect(text).not.toContain('wrong-key-123');
    }
    expect(errors).toEqual([]);
  });

  it('the emulator control calls need the admin key', async () => {
    const anonymous = await fetch(`${emulator.url}/_emulator/reset`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    const user = await fetch(`${emulator.url}/_emulator/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${USER}` },
    });
    expect(user.status).toBe(403);
  });

  it('generates a random development admin key when none is given', async () => {
    const a = await startEmulator();
    const b = await startEmulator();
    try {
      expect(a.adminKey).toMatch(/^kis-dev-admin-[A-Za-z0-9_-]{32}$/);
      expect(a.adminKey).not.toBe(b.adminKey);
      const r = await fetch(`${a.baseUrl}/manage/admin/credential`, {
        headers: { authorization: `Bearer ${a.adminKey}` },
      });
      expect(r.status).toBe(200);
      const other = await fetch(`${a.baseUrl}/manage/admin/credential`, {
        headers: { authorization: `Bearer ${b.adminKey}` },
      });
      expect(other.status).toBe(401);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('rejects unusable keys and options at start', async () => {
    await expect(startEmulator({ adminKey: 'short' })).rejects.toThrow(/admin ?key/i);
    await expect(startEmulator({ userKeys: ['has space in it'] })).rejects.toThrow(/user key/);
    await expect(startEmulator({ port: 70000 })).rejects.toThrow(/port/);
    await expect(startEmulator({ maxBodyBytes: 0 })).rejects.toThrow(/maxBodyBytes/);
  });
});
