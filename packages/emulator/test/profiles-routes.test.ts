// Routes, keys and roles of each profile. Expected statuses and bodies are fixed values taken from
// compat-notes.md ("Where deployed servers differ from the seed"), not computed by the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator, Profile } from '../src/index.js';
import { type client, connectorBody, doc, filePart, PACKAGE_VERSION, start } from './helpers.js';

const ADMIN = 'profiles-admin-key-1';
const CURATOR = 'profiles-curator-key-1';
const BASIC = 'profiles-basic-key-1';

const emulators = {} as Record<Profile, Emulator>;
const calls = {} as Record<Profile, ReturnType<typeof client>>;

beforeAll(async () => {
  for (const profile of ['seed', 'deployed'] as const) {
    const { emulator, call } = await start({
      profile,
      adminKey: ADMIN,
      curatorKeys: [CURATOR],
      userKeys: [BASIC],
    });
    emulators[profile] = emulator;
    calls[profile] = call;
  }
});
afterAll(async () => {
  await Promise.all(Object.values(emulators).map((e) => e.close()));
});

/** A raw request (no contract check: some of these routes are not served). */
async function raw(profile: Profile, method: string, path: string, key: string | null = ADMIN) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const r = await fetch(`${emulators[profile].baseUrl}${path}`, {
    method,
    headers,
    body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
  });
  return { status: r.status, body: (await r.json()) as unknown };
}

const NOT_FOUND = { detail: 'Not Found' };
const NOT_ALLOWED = { detail: 'Method Not Allowed' };

describe('routes', () => {
  it.each([
    // [profile, method, path, status, body]
    ['deployed', 'PUT', '/manage/admin/connector/1/credential/0', 404, NOT_FOUND],
    ['deployed', 'POST', '/user/file/upload', 404, NOT_FOUND],
    ['deployed', 'GET', '/manage/admin/connector', 405, NOT_ALLOWED],
    ['deployed', 'GET', '/manage/connector/1/credential/0', 405, NOT_ALLOWED],
    ['deployed', 'GET', '/no/such/route', 404, NOT_FOUND],
    ['seed', 'GET', '/no/such/route', 404, NOT_FOUND],
    ['seed', 'GET', '/manage/admin/connector', 405, NOT_ALLOWED],
  ] as const)('%s %s %s: %i', async (profile, method, path, status, body) => {
    const r = await raw(profile, method, path);
    expect(r).toEqual({ status, body });
  });

  it('an unknown route is 404 before the key is checked (deployed)', async () => {
    expect(await raw('deployed', 'POST', '/user/file/upload', null)).toEqual({
      status: 404,
      body: NOT_FOUND,
    });
  });

  it("the seed profile serves deployed servers' paths too (clients try them first)", async () => {
    const call = calls.seed;
    const c = await call<{ id: number }>('POST', '/manage/admin/connector', {
      json: connectorBody({ name: 'seed-serves-deployed', source: 'web' }),
    });
    const r = await call('PUT', `/manage/connector/${c.body.id}/credential/0`, {
      json: { name: 'pair', access_type: 'public' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true });
    const form = new FormData();
    form.append('files', filePart(new Uint8Array([1]), 'a.png'));
    expect((await call('POST', '/user/projects/file/upload', { form })).status).toBe(200);
  });

  it.each(['seed', 'deployed'] as const)('GET /version (%s) needs no key', async (profile) => {
    const r = await calls[profile]('GET', '/version', { key: null });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ backend_version: `kis-emulator ${PACKAGE_VERSION} (${profile})` });
  });
});

describe('keys', () => {
  const DEPLOYED_NOT_AUTHENTICATED = { detail: 'Access denied. User is not authenticated.' };
  const SEED_NOT_AUTHENTICATED = {
    detail: 'Missing or invalid API key: send the header Authorization: Bearer <API key>',
  };

  it.each([
    ['deployed', null, 403, DEPLOYED_NOT_AUTHENTICATED],
    ['deployed', 'not-a-known-key', 403, DEPLOYED_NOT_AUTHENTICATED],
    ['seed', null, 401, SEED_NOT_AUTHENTICATED],
    ['seed', 'not-a-known-key', 401, SEED_NOT_AUTHENTICATED],
  ] as const)('%s, key %s: %i', async (profile, key, status, body) => {
    for (const [method, path] of [
      ['GET', '/svc-api/ingestion'],
      ['POST', '/svc-api/ingestion'],
      ['GET', '/manage/admin/credential'],
      ['POST', '/user/projects/file/upload'],
    ] as const) {
      expect(await raw(profile, method, path, key), `${method} ${path}`).toEqual({ status, body });
    }
  });
});

describe('roles', () => {
  const needs = (role: string) =>
    `Access denied: this operation needs a key with the ${role} role` as const;
  // the main line: a key in the Basic group lacks manage:connectors
  const DEPLOYED_CURATOR = {
    error_code: 'INSUFFICIENT_PERMISSIONS',
    detail: 'You do not have the required permissions for this action.',
  };

  it.each([
    // deployed: manage:connectors for everything but the uploads
    ['deployed', BASIC, 'GET', '/svc-api/ingestion', 403, DEPLOYED_CURATOR],
    ['deployed', BASIC, 'GET', '/manage/admin/credential', 403, DEPLOYED_CURATOR],
    ['deployed', BASIC, 'POST', '/manage/credential', 403, DEPLOYED_CURATOR],
    ['deployed', BASIC, 'DELETE', '/svc-api/ingestion/x', 403, DEPLOYED_CURATOR],
    ['deployed', BASIC, 'GET', '/svc-api/connector-docs/1', 403, DEPLOYED_CURATOR],
    // seed: /manage/admin/* needs admin, the rest a basic key
    ['seed', BASIC, 'GET', '/manage/admin/credential', 403, { detail: needs('admin') }],
    ['seed', CURATOR, 'GET', '/manage/admin/credential', 403, { detail: needs('admin') }],
  ] as const)('%s, %s key: %s %s is %i', async (profile, key, method, path, status, body) => {
    expect(await raw(profile, method, path, key)).toEqual({ status, body });
  });

  it('deployed: a curator key may manage connectors and ingest; a basic key may upload', async () => {
    const call = calls.deployed;
    const created = await call<{ id: number }>('POST', '/manage/admin/connector', {
      key: CURATOR,
      json: connectorBody({ name: 'by-curator', source: 'web' }),
    });
    expect(created.status).toBe(200);
    const ingested = await call('POST', '/svc-api/ingestion', {
      key: CURATOR,
      json: { document: doc({ id: 'curated' }) },
    });
    expect(ingested.status).toBe(200);
    const form = new FormData();
    form.append('files', filePart(new Uint8Array([1]), 'a.png'));
    expect((await call('POST', '/user/projects/file/upload', { key: BASIC, form })).status).toBe(
      200,
    );
  });

  it('seed: a basic key may ingest, list and create credentials', async () => {
    const call = calls.seed;
    expect(
      (await call('POST', '/svc-api/ingestion', { key: BASIC, json: { document: doc() } })).status,
    ).toBe(200);
    expect((await call('GET', '/svc-api/ingestion', { key: BASIC })).status).toBe(200);
  });
});
