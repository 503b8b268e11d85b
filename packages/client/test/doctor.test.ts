/**
 * `kis.doctor()` against the emulator in both profiles and against small servers that answer as
 * the compat notes say (a web application's login page, a server that follows the seed, a port
 * nothing listens on). The checks change nothing on the server, and never show the key.
 */
import { BASIC_GROUP_ID, CURATORS_GROUP_ID, type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApiKeyCreateRequest, createKisClient, type DoctorReport } from '../src/index.js';
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

const KEY_GOOD = [
  '✓ server reachable',
  '✓ base URL includes /api',
  '✓ API key accepted',
  '✓ key can manage connectors',
];
const MAY_USE_ALL = [
  '✓ may use connectors',
  '✓ may use credentials',
  '✓ may use ingestion',
  '✓ may use documents',
];
const ROUTES_GOOD = ['✓ association route', '✓ upload route', '✓ server version'];
/** What can take pushed documents away: a model switch, pairs a prune would empty. */
const GUARDS_GOOD = ['✓ model switch', '✓ prune risk'];
/** Who the key is, per profile: a role on the seed's emulator, a service account on the main line. */
const IDENTITY = {
  seed: ['✓ key role'],
  deployed: ['✓ key account', '✓ key groups', '✓ key permissions'],
} as const;
const allGood = (profile: 'seed' | 'deployed') => [
  ...KEY_GOOD,
  ...IDENTITY[profile],
  ...MAY_USE_ALL,
  ...ROUTES_GOOD,
  ...GUARDS_GOOD,
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
      expect(names(r)).toEqual(allGood(profile));
      const count = allGood(profile).length;
      expect(r.summary).toEqual({
        ok: true,
        passed: count,
        failed: 0,
        warnings: 0,
        reachable: true,
      });
      expect(check(r, 'model switch')?.detail).toBe('none in progress');
      expect(check(r, 'prune risk')?.detail).toMatch(
        /^no pair holds documents a prune would delete \(\d+ file pair\(s\) checked\)$/,
      );
      expect(r.modelSwitch).toBeNull();
      expect(r.pruneRisks).toEqual([]);
      expect(r.access?.every((a) => a.allowed)).toBe(true);
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

    it('a basic key: accepted, but it cannot manage connectors (the fix fits the key model)', async () => {
      const r = await doctor(emu.baseUrl, USER_KEY, 1);
      const refused = profile === 'seed' ? [] : ['✗ may use connectors', '✗ may use credentials'];
      const partly = profile === 'seed' ? [] : ['✗ may use ingestion', '✓ may use documents'];
      expect(names(r)).toEqual([
        '✓ server reachable',
        '✓ base URL includes /api',
        '✓ API key accepted',
        '✗ key can manage connectors',
        ...IDENTITY[profile],
        ...refused,
        ...partly,
        ...ROUTES_GOOD,
        '✓ model switch',
      ]);
      // the seed's emulator answers /me with a role but refuses keys the seed's way
      expect(check(r, 'key can manage connectors')?.fix).toBe(
        profile === 'seed'
          ? 'use a key that can manage connectors (admin or curator)'
          : 'add the key to a group that grants manage:connectors',
      );
      if (profile === 'seed') {
        expect(r.key).toEqual({ model: 'role', role: 'basic', checks: 'seed' });
        expect(r.access).toBeUndefined();
      }
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
      expect(r.summary).toEqual({
        ok: false,
        passed: 1,
        failed: 1,
        warnings: 0,
        reachable: true,
      });
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
      // no /me: said, and the role checks stay today's
      expect(check(r, 'key identity')).toEqual({
        name: 'key identity',
        ok: true,
        detail:
          'not served (GET /me: HTTP 404: Not Found; a server that follows the seed, whose keys have roles: see "key can manage connectors")',
      });
      expect(r.key).toEqual({ model: 'unknown', reason: check(r, 'key identity')?.detail });
      expect(r.access).toBeUndefined();
      // no search settings nor pair listing here: those checks are left out
      expect(check(r, 'model switch')).toBeUndefined();
      expect(check(r, 'prune risk')).toBeUndefined();
      // probes and readings only: an association with an empty body, an upload without files
      expect(server.calls()).toEqual([
        'GET /version',
        'GET /manage/admin/credential',
        'GET /me',
        'PUT /manage/connector/0/credential/0',
        'PUT /manage/admin/connector/0/credential/0',
        'POST /user/projects/file/upload',
        'POST /user/file/upload',
        'GET /search-settings/get-secondary-search-settings',
        'GET /manage/admin/connector/status',
      ]);
      expect(server.requests[3]?.json).toEqual({});
    } finally {
      await server.close();
    }
  });

  it('a server that does not answer: one failed check, reachable false', async () => {
    const url = await deadBaseUrl();
    const r = await doctor(url);
    expect(names(r)).toEqual(['✗ server reachable']);
    expect(check(r, 'server reachable')?.detail).toContain(`${url} did not answer`);
    expect(r.summary).toEqual({
      ok: false,
      passed: 0,
      failed: 1,
      warnings: 0,
      reachable: false,
    });
  });
});

describe('doctor and the key models of deployed servers', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  async function keyOn(release: 'main' | 'v4.6.1', body: ApiKeyCreateRequest): Promise<string> {
    emu = await startEmulator({ port: 0, dbPath: ':memory:', profile: 'deployed', release });
    const admin = createKisClient({ baseUrl: emu.baseUrl, apiKey: emu.adminKey, logLevel: 'off' });
    const { api_key: key } = await admin.apiKeys.create(body);
    if (typeof key !== 'string') throw new Error('the emulator answered no key');
    return key;
  }

  it('main line, a key made without a group: its account, no group, write:chat, and the group to join', async () => {
    const key = await keyOn('main', { name: 'ci' });
    const r = await doctor((emu as Emulator).baseUrl, key);
    expect(r.key).toEqual({
      model: 'groups',
      accountType: 'SERVICE_ACCOUNT',
      permissions: ['write:chat'],
      groupManager: false,
    });
    expect(check(r, 'key account')?.detail).toBe(
      "SERVICE_ACCOUNT (main line: a key's rights are the grants of its groups)",
    );
    expect(check(r, 'key groups')?.detail).toBe(
      'none: the key holds only write:chat, what a key in no group holds',
    );
    expect(check(r, 'key permissions')?.detail).toBe('write:chat');
    expect(check(r, 'key can manage connectors')?.fix).toBe(
      'add the key to a group that grants manage:connectors',
    );
    expect(check(r, 'may use connectors')).toEqual({
      name: 'may use connectors',
      ok: false,
      detail: 'refused: needs manage:connectors, and the key holds write:chat',
      fix: 'add the key to a group that grants manage:connectors',
    });
    expect(check(r, 'may use documents')?.fix).toBe('add the key to a group that grants basic');
    expect(r.access?.map((a) => [a.group, a.allowed])).toEqual([
      ['connectors', false],
      ['credentials', false],
      ['ingestion', false],
      ['documents', false],
    ]);
    const refused = r.access?.[0]?.refused.find((x) => x.operationId === 'getCcPair');
    expect(refused).toEqual({ operationId: 'getCcPair', needs: 'read:connectors' });
    expectNoKey(r, key);
  });

  it('main line, a key in the Basic group: documents only; ingestion in part', async () => {
    const key = await keyOn('main', { name: 'reader', group_ids: [BASIC_GROUP_ID] });
    const r = await doctor((emu as Emulator).baseUrl, key);
    expect(check(r, 'key permissions')?.detail).toBe('basic');
    expect(check(r, 'key groups')?.detail).toBe(
      "not shown to the key itself; the permissions below are its groups' grants",
    );
    expect(check(r, 'may use documents')).toEqual({
      name: 'may use documents',
      ok: true,
      detail: 'yes (needs basic)',
    });
    expect(check(r, 'may use ingestion')?.detail).toBe(
      'refused in part (4 of 5 calls: ingestDocument, listIngestedDocuments, deleteIngestedDocument and 1 more): needs manage:connectors, and the key holds basic',
    );
  });

  it('main line, a key in a group granting manage:connectors: every group but documents', async () => {
    const key = await keyOn('main', { name: 'ops', group_ids: [CURATORS_GROUP_ID] });
    const r = await doctor((emu as Emulator).baseUrl, key);
    expect(check(r, 'key can manage connectors')?.ok).toBe(true);
    expect(check(r, 'key permissions')?.detail).toBe('manage:connectors, read:connectors');
    expect(r.access?.map((a) => [a.group, a.allowed])).toEqual([
      ['connectors', true],
      ['credentials', true],
      ['ingestion', false],
      ['documents', false],
    ]);
    expect(check(r, 'may use ingestion')?.fix).toBe('add the key to a group that grants basic');
  });

  it('release 4.6.1, a basic key: its role, and the role to use', async () => {
    const key = await keyOn('v4.6.1', { name: 'ci', role: 'basic' });
    const r = await doctor((emu as Emulator).baseUrl, key);
    expect(r.key).toEqual({ model: 'role', role: 'basic', checks: 'v4.6.1' });
    expect(check(r, 'key role')?.detail).toBe(
      'basic (a key with a role, as on release 4.6.1: its rights come from the role, and connector calls take a key of role admin)',
    );
    expect(check(r, 'key can manage connectors')?.fix).toBe(
      'use a key of role admin (POST /admin/api-key with {"role": "admin"})',
    );
    expect(check(r, 'may use connectors')).toEqual({
      name: 'may use connectors',
      ok: false,
      detail:
        'refused: a key of role basic is answered 403 "Access denied. User is not a curator or admin."',
      fix: 'use a key of role admin (POST /admin/api-key with {"role": "admin"})',
    });
    expect(check(r, 'may use documents')?.detail).toBe('yes (role basic)');
  });

  it('release 4.6.1, a curator key holds no permission: refused as limited everywhere', async () => {
    const key = await keyOn('v4.6.1', { name: 'cur', role: 'curator' });
    const r = await doctor((emu as Emulator).baseUrl, key);
    expect(check(r, 'may use connectors')?.detail).toBe(
      'refused: a key of role curator is answered 403 "Access denied. User has limited permissions."',
    );
    expect(check(r, 'may use documents')?.fix).toBe(
      'use a key of role basic or admin (POST /admin/api-key with {"role": "admin"})',
    );
  });
});
