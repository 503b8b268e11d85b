// Keys and their rights on each kind of server: /me and /me/permissions, API key creation (groups
// on the main line, roles on release 4.6.1 and the seed's kind), and what a key made the default
// way may do. Expected values are written out from compat-lifecycle.md §10 and
// docs/deployed-servers.md, "Keys and their rights".
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_GROUP_ID, BASIC_GROUP_ID, CURATORS_GROUP_ID } from '../src/index.js';
import { start } from './helpers.js';
import { BASIC, CURATOR, emulatorsPerTest, type Json, type Started } from './lifecycle-helpers.js';

const { use, track } = emulatorsPerTest();

const DENIED = {
  error_code: 'INSUFFICIENT_PERMISSIONS',
  detail: 'You do not have the required permissions for this action.',
};
const NOT_CURATOR = { detail: 'Access denied. User is not a curator or admin.' };
const LIMITED = { detail: 'Access denied. User has limited permissions.' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A new key's secret, made with the admin key. */
async function newKey(s: Started, body: Json): Promise<{ key: string; answer: Json }> {
  const r = await s.call<Json>('POST', '/admin/api-key', { json: body });
  expect(r.status).toBe(200);
  return { key: r.body.api_key as string, answer: r.body };
}

/** The status of a connector call, a document check and /me with `key`. */
async function reach(s: Started, key: string) {
  const pairs = await s.call('GET', '/manage/admin/connector/status', { key });
  const size = await s.call('GET', '/document/document-size-info?document_id=x', { key });
  const me = await s.call('GET', '/me', { key });
  return { pairs, size, me };
}

describe('the main line: keys are service accounts in groups', () => {
  it('/me and /me/permissions of the admin, curator and basic keys', async () => {
    const s = await use('main');
    const me = await s.call<Json>('GET', '/me');
    expect(me.body).toEqual({
      id: expect.stringMatching(UUID),
      email: expect.stringMatching(/^API_KEY__kis-emulator-admin@[0-9a-f-]{36}\./),
      is_active: true,
      is_superuser: false,
      is_verified: true,
      preferences: {},
      personalization: null,
      token_expires_at: null,
      is_cloud_superuser: false,
      team_name: null,
      is_anonymous_user: false,
      password_configured: false,
      tenant_info: null,
      account_type: 'SERVICE_ACCOUNT',
      effective_permissions: ['admin'],
      is_group_manager: false,
    });
    expect((await s.call<Json>('GET', '/me', { key: CURATOR })).body.effective_permissions).toEqual(
      ['basic', 'manage:connectors', 'read:connectors'],
    );
    const permissions = await s.call('GET', '/me/permissions', { key: BASIC });
    expect(permissions.body).toEqual({
      permissions: ['basic'],
      is_manager: false,
      managed_group_ids: [],
    });
    const anonymous = await s.call('GET', '/me', { key: null });
    expect([anonymous.status, anonymous.body]).toEqual([403, { detail: 'Unauthorized' }]);
  });

  it('a key in no group holds write:chat: /me answers, every connector and document call is 403', async () => {
    const s = await use('main');
    const { key, answer } = await newKey(s, { name: 'kis-ci' });
    expect(answer).toEqual({
      api_key_id: expect.any(Number),
      api_key_display: `${key.slice(0, 4)}****${key.slice(-4)}`,
      api_key: key,
      api_key_name: 'kis-ci',
      groups: [],
      user_id: expect.stringMatching(UUID),
    });
    const { pairs, size, me } = await reach(s, key);
    expect([pairs.status, pairs.body]).toEqual([403, DENIED]);
    expect([size.status, size.body]).toEqual([403, DENIED]);
    expect(me.body).toMatchObject({
      id: answer.user_id,
      email: expect.stringMatching(/^API_KEY__kis-ci@/),
      effective_permissions: ['write:chat'],
    });
    expect((await s.call('GET', '/me/permissions', { key })).body).toEqual(DENIED);
    // the key is never kept: the state view shows its name and groups only
    expect(JSON.stringify(s.emulator.state.snapshot())).not.toContain(key);
    expect(JSON.stringify(s.emulator.state.snapshot())).not.toContain(key.slice(-4));
  });

  it('the seeded groups: Basic may check documents, Admin everything; Curators manage connectors', async () => {
    const s = await use('main');
    expect(
      s.emulator.state
        .groups()
        .map(({ id, name, grants, is_default }) => ({ id, name, grants, is_default })),
    ).toEqual([
      { id: ADMIN_GROUP_ID, name: 'Admin', grants: ['admin'], is_default: true },
      { id: BASIC_GROUP_ID, name: 'Basic', grants: ['basic'], is_default: true },
      { id: CURATORS_GROUP_ID, name: 'Curators', grants: ['manage:connectors'], is_default: false },
    ]);
    const basic = await newKey(s, { group_ids: [BASIC_GROUP_ID] });
    expect(basic.answer.groups).toEqual([{ id: 2, name: 'Basic' }]);
    const asBasic = await reach(s, basic.key);
    expect([asBasic.pairs.status, asBasic.size.status]).toEqual([403, 404]);
    const admin = await newKey(s, { group_ids: [ADMIN_GROUP_ID], role: 'basic' });
    const asAdmin = await reach(s, admin.key);
    expect([asAdmin.pairs.status, asAdmin.size.status]).toEqual([200, 404]);
    const curator = await newKey(s, { group_ids: [CURATORS_GROUP_ID] });
    const asCurator = await reach(s, curator.key);
    expect([asCurator.pairs.status, asCurator.size.status]).toEqual([200, 403]);
    expect((await s.call('GET', '/me', { key: curator.key })).body).toMatchObject({
      effective_permissions: ['manage:connectors', 'read:connectors'],
    });
  });

  it('unknown group ids: 400 naming them; creating keys needs manage:service_account_api_keys', async () => {
    const s = await use('main');
    const unknown = await s.call('POST', '/admin/api-key', { json: { group_ids: [1, 42, 7] } });
    expect([unknown.status, unknown.body]).toEqual([
      400,
      { message: 'Group IDs do not exist: [42, 7]' },
    ]);
    expect(s.emulator.state.apiKeys()).toEqual([]);
    const byCurator = await s.call('POST', '/admin/api-key', { key: CURATOR, json: {} });
    expect([byCurator.status, byCurator.body]).toEqual([403, DENIED]);
  });
});

describe('release 4.6.1: keys have roles', () => {
  it('/me names the role; /me/permissions is a sorted list', async () => {
    const s = await use('v4.6.1');
    const me = await s.call<Json>('GET', '/me');
    expect(me.body).toMatchObject({ role: 'admin', is_active: true });
    expect(me.body).not.toHaveProperty('account_type');
    expect((await s.call('GET', '/me/permissions')).body).toEqual(['admin']);
    expect((await s.call('GET', '/me/permissions', { key: BASIC })).body).toEqual(['basic']);
  });

  it('only an admin key passes the connector calls; basic and limited keys are not curators, a curator key is limited', async () => {
    const s = await use('v4.6.1');
    const basic = await newKey(s, { name: 'reader', group_ids: [ADMIN_GROUP_ID] });
    expect(basic.answer).toEqual({
      api_key_id: expect.any(Number),
      api_key_display: expect.any(String),
      api_key: basic.key,
      api_key_name: 'reader',
      api_key_role: 'basic',
      user_id: expect.stringMatching(UUID),
    });
    const asBasic = await reach(s, basic.key);
    expect([asBasic.pairs.status, asBasic.pairs.body]).toEqual([403, NOT_CURATOR]);
    expect(asBasic.size.status).toBe(404);
    const limited = await newKey(s, { role: 'limited' });
    const asLimited = await reach(s, limited.key);
    expect(asLimited.pairs.body).toEqual(NOT_CURATOR);
    expect(asLimited.me.body).toMatchObject({ role: 'limited' });
    for (const role of ['curator', 'global_curator'] as const) {
      const curator = await newKey(s, { role });
      const asCurator = await reach(s, curator.key);
      expect([asCurator.pairs.status, asCurator.pairs.body]).toEqual([403, LIMITED]);
      expect(asCurator.me.status).toBe(200);
    }
    const admin = await newKey(s, { role: 'admin' });
    expect((await reach(s, admin.key)).pairs.status).toBe(200);
    // the --curator-key keys have the curator role: limited, as such keys are on this release
    expect((await s.call('GET', '/manage/admin/connector/status', { key: CURATOR })).body).toEqual(
      LIMITED,
    );
    const byBasic = await s.call('POST', '/admin/api-key', { key: BASIC, json: {} });
    expect([byBasic.status, byBasic.body]).toEqual([403, DENIED]);
  });
});

describe("the seed's kind: keys have the seed's roles", () => {
  it('/me names the role, creating a key takes one; a role the seed lacks is refused everywhere', async () => {
    const s = await use('seed');
    expect((await s.call('GET', '/me', { key: CURATOR })).body).toMatchObject({ role: 'curator' });
    const anonymous = await s.call('GET', '/me', { key: null });
    expect(anonymous.status).toBe(401);
    const admin = await newKey(s, { role: 'admin' });
    expect(admin.answer).toMatchObject({ api_key_role: 'admin' });
    expect((await reach(s, admin.key)).pairs.status).toBe(200);
    const basic = await newKey(s, {});
    const asBasic = await reach(s, basic.key);
    expect([asBasic.pairs.status, asBasic.size.status]).toEqual([403, 404]);
    const slack = await newKey(s, { role: 'slack_user' });
    const me = await s.call('GET', '/me', { key: slack.key });
    expect([me.status, me.body]).toEqual([
      403,
      { detail: 'Access denied: this operation needs a key with the basic role' },
    ]);
  });
});

describe('created keys and the database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kis-emulator-keys-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('a created key works after a restart; its secret is nowhere in the database file', async () => {
    const dbPath = join(dir, 'keys.db');
    const first = track(await start({ dbPath, profile: 'deployed' }));
    const r = await first.call<Json>('POST', '/admin/api-key', {
      json: { name: 'kept', group_ids: [ADMIN_GROUP_ID] },
    });
    const key = r.body.api_key as string;
    await first.emulator.close();
    for (const file of ['keys.db', 'keys.db-wal']) {
      const path = join(dir, file);
      if (existsSync(path)) expect(readFileSync(path).includes(key)).toBe(false);
    }
    const second = track(await start({ dbPath, profile: 'deployed' }));
    const me = await second.call<Json>('GET', '/me', { key });
    expect(me.body).toMatchObject({ email: expect.stringMatching(/^API_KEY__kept@/) });
  });
});
