/**
 * `kis.doctor()` against the emulator in both profiles and against small servers that answer as
 * the compat notes say (a web application's login page, a server that follows the seed, a port
 * nothing listens on). The checks change nothing on the server, and never show the key.
 */
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKisClient, type DoctorReport } from '../src/index.js';
import { deadBaseUrl, startFakeServer } from './fake-server.js';
import { API_KEY } from './helpers.js';

const USER_KEY = 'kis-doctor-user-key-0123456789';
const CURATOR_KEY = 'kis-doctor-curator-key-0123456789';
const WRONG_KEY = 'kis-doctor-wrong-key-0123456789';

function doctor(baseUrl: string, key = API_KEY, ccPairId?: number): Promise<DoctorReport> {
  const kis = createKisClient({ baseUrl, apiKey: key, logLevel: 'off' });
  return kis.doctor(ccPairId === undefined ? {} : { ccPairId });
}

const names = (r: DoctorReport) => r.checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.name}`);
const check = (r: DoctorReport, name: string) => r.checks.find((c) => c.name === name);

/** No report shows the key it was run with. */
function expectNoKey(r: DoctorReport, key: string): void {
  expect(JSON.stringify(r)).not.toContain(key);
}

const ALL_GOOD = [
  '✓ server reachable',
  '✓ base URL includes /api',
  '✓ API key accepted',
  '✓ key can manage connectors',
  '✓ association route',
  '✓ upload route',
  '✓ server version',
];

describe.each(['seed', 'deployed'] as const)(
  'doctor against the emulator (%s profile)',
  (profile) => {
    let emu: Emulator;
    beforeAll(async () => {
      emu = await startEmulator({
        port: 0,
        dbPath: ':memory:',
        adminKey: API_KEY,
        userKeys: [USER_KEY],
        curatorKeys: [CURATOR_KEY],
        profile,
      });
    });
    afterAll(async () => {
      await emu.close();
    });

    it('a good server, base URL and key: every check passes, and nothing changes on the server', async () => {
      const pairs = emu.state.pairs().length;
      const r = await doctor(emu.baseUrl);
      expect(names(r)).toEqual(ALL_GOOD);
      expect(r.summary).toEqual({ ok: true, passed: 7, failed: 0, reachable: true });
      expect(check(r, 'association route')?.detail).toBe(
        "PUT /manage/connector/{connector_id}/credential/{credential_id} (deployed servers' path)",
      );
      expect(check(r, 'upload route')?.detail).toBe(
        "POST /user/projects/file/upload (deployed servers' path)",
      );
      expect(check(r, 'server version')?.detail).toContain(`(${profile})`);
      expect(emu.state.pairs()).toHaveLength(pairs);
      expect(emu.state.files()).toEqual([]);
      expectNoKey(r, API_KEY);
    });

    it('--cc-pair: the pair exists and how many documents it holds; an unknown pair fails', async () => {
      const kis = createKisClient({ baseUrl: emu.baseUrl, apiKey: API_KEY, logLevel: 'off' });
      await kis.ingestDocument(
        { semantic_identifier: 'Doctor', sections: [{ text: 'x' }], metadata: {} },
        { ccPairId: 1 },
      );
      const known = await doctor(emu.baseUrl, API_KEY, 1);
      expect(check(known, 'cc pair 1')).toEqual({
        name: 'cc pair 1',
        ok: true,
        detail: 'exists and holds 1 document(s)',
      });
      const unknown = await doctor(emu.baseUrl, API_KEY, 99);
      const pair = check(unknown, 'cc pair 99');
      expect(pair?.ok).toBe(false);
      expect(pair?.detail).toMatch(/^no such pair visible to this key \(HTTP (404|403)/);
      expect(pair?.fix).toContain('cc_pair_id');
      expect(unknown.summary.ok).toBe(false);
    });

    it('a wrong key: rejected (401 on the seed, 403 on deployed servers); the checks stop there', async () => {
      const r = await doctor(emu.baseUrl, WRONG_KEY);
      expect(names(r)).toEqual([
        '✓ server reachable',
        '✓ base URL includes /api',
        '✗ API key accepted',
      ]);
      const key = check(r, 'API key accepted');
      expect(key?.detail).toContain(`HTTP ${profile === 'seed' ? 401 : 403}`);
      expect(key?.fix).toMatch(/valid API key/);
      expect(r.summary).toMatchObject({ ok: false, failed: 1, reachable: true });
      expectNoKey(r, WRONG_KEY);
    });

    it('a basic key: accepted, but it cannot manage connectors (the fix names the roles)', async () => {
      const r = await doctor(emu.baseUrl, USER_KEY, 1);
      expect(names(r)).toEqual([
        '✓ server reachable',
        '✓ base URL includes /api',
        '✓ API key accepted',
        '✗ key can manage connectors',
        '✓ association route',
        '✓ upload route',
        '✓ server version',
      ]);
      expect(check(r, 'key can manage connectors')?.fix).toBe(
        'use a key that can manage connectors (admin or curator)',
      );
      expectNoKey(r, USER_KEY);
    });

    it('a curator key manages connectors on deployed servers only', async () => {
      const r = await doctor(emu.baseUrl, CURATOR_KEY);
      expect(check(r, 'key can manage connectors')?.ok).toBe(profile === 'deployed');
    });

    it('a base URL without /api: the fix gives the URL with it', async () => {
      const r = await doctor(emu.url);
      expect(names(r)).toEqual(['✓ server reachable', '✗ base URL includes /api']);
      expect(check(r, 'base URL includes /api')?.fix).toBe(
        `use ${emu.url}/api (the base URL includes the /api prefix)`,
      );
    });
  },
);

describe('doctor against other servers', () => {
  it("a deployed server's web application (an HTML login page) where the API was expected", async () => {
    const login =
      '<!doctype html><html><head><title>Login</title></head><body>Sign in</body></html>';
    const server = await startFakeServer({}, () => ({ html: login }));
    try {
      const r = await doctor(server.origin);
      expect(names(r)).toEqual(['✓ server reachable', '✗ base URL includes /api']);
      const api = check(r, 'base URL includes /api');
      expect(api?.detail).toBe(
        `${server.origin} answered with an HTML page (HTTP 200), not the API`,
      );
      expect(api?.fix).toBe(`use ${server.origin}/api (the base URL includes the /api prefix)`);
      expect(r.summary).toEqual({ ok: false, passed: 1, failed: 1, reachable: true });
      // no key went anywhere but the headers: nothing to show
      expectNoKey(r, API_KEY);
    } finally {
      await server.close();
    }
  });

  it('an HTML page under /api (a proxy or login page in front): no URL to suggest', async () => {
    const server = await startFakeServer({
      'GET /version': () => ({ status: 502, html: '<html><body>Bad gateway</body></html>' }),
    });
    try {
      const r = await doctor(server.baseUrl);
      expect(check(r, 'base URL includes /api')?.fix).toBe(
        'check the base URL and any proxy or login page in front of the API',
      );
    } finally {
      await server.close();
    }
  });

  it("a server that follows the seed: the seed's routes, no version", async () => {
    const server = await startFakeServer({
      'GET /manage/admin/credential': () => ({ body: [{ id: 0, source: 'not_applicable' }] }),
      'PUT /manage/admin/connector/{c}/credential/{k}': () => ({
        status: 422,
        body: {
          detail: [{ loc: ['body', 'access_type'], msg: 'Field required', type: 'missing' }],
        },
      }),
      'POST /user/file/upload': () => ({
        status: 422,
        body: { detail: [{ loc: ['body', 'files'], msg: 'Field required', type: 'missing' }] },
      }),
    });
    try {
      const r = await doctor(server.baseUrl);
      expect(r.summary.ok).toBe(true);
      expect(check(r, 'association route')?.detail).toBe(
        "PUT /manage/admin/connector/{connector_id}/credential/{credential_id} (the seed's path; no /manage/connector/{connector_id}/credential/{credential_id})",
      );
      expect(check(r, 'upload route')?.detail).toBe(
        "POST /user/file/upload (the seed's path; no /user/projects/file/upload)",
      );
      expect(check(r, 'server version')?.detail).toBe(
        'not served (GET /version: 404 Not Found; a server that follows the seed)',
      );
      // probes only: an association with an empty body, an upload without files
      expect(server.calls()).toEqual([
        'GET /version',
        'GET /manage/admin/credential',
        'PUT /manage/connector/0/credential/0',
        'PUT /manage/admin/connector/0/credential/0',
        'POST /user/projects/file/upload',
        'POST /user/file/upload',
      ]);
      expect(server.requests[2]?.json).toEqual({});
    } finally {
      await server.close();
    }
  });

  it('a server that does not answer: one failed check, reachable false', async () => {
    const url = await deadBaseUrl();
    const r = await doctor(url);
    expect(names(r)).toEqual(['✗ server reachable']);
    expect(check(r, 'server reachable')?.detail).toContain(`${url} did not answer`);
    expect(r.summary).toEqual({ ok: false, passed: 0, failed: 1, reachable: false });
  });
});
