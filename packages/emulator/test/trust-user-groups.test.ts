// User groups (compat-trust §4): the enterprise edition's routes (404 without it, 402 below the
// Business tier), their sync (`is_up_to_date`: changes of pairs, renames and deletes; edits
// refused meanwhile: 404, a rename 409), access through groups by name, the main line's guards on
// its seeded groups and on managers, and the routes each line has. From compat-trust.md §4.
import { describe, expect, it } from 'vitest';
import { BASIC_GROUP_ID, CURATORS_GROUP_ID } from '../src/index.js';
import { emulatorsPerTest, type Started } from './lifecycle-helpers.js';
import { newKey, ownedPair, push, sizeStatus } from './trust-helpers.js';

const { use } = emulatorsPerTest();
const SYNC_MS = 1000;
type Group = { id: number; name: string; is_up_to_date: boolean; is_up_for_deletion: boolean };

async function create(s: Started, name: string, users: string[] = [], pairs: number[] = []) {
  const r = await s.call<Group>('POST', '/manage/admin/user-group', {
    json: { name, user_ids: users, cc_pair_ids: pairs },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

async function groups(s: Started, query = ''): Promise<Group[]> {
  return (await s.call<Group[]>('GET', `/manage/admin/user-group${query}`)).body;
}

describe('editions', () => {
  it('without the enterprise edition every route is FastAPI 404; below Business 402, key creation too', async () => {
    const community = await use('main', { edition: 'community' });
    const routes: [string, string][] = [
      ['GET', '/manage/admin/user-group'],
      ['POST', '/manage/admin/user-group'],
      ['PATCH', '/manage/admin/user-group/4'],
      ['PATCH', '/manage/admin/user-group/rename'],
      ['DELETE', '/manage/admin/user-group/4'],
    ];
    for (const [method, path] of routes) {
      const r = await community.call(method, path, method === 'GET' ? {} : { json: {} });
      expect([r.status, r.body], `${method} ${path}`).toEqual([404, { detail: 'Not Found' }]);
    }
    const plan = {
      error_code: 'FEATURE_NOT_AVAILABLE',
      detail: 'This feature requires the Business plan.',
      required_tier: 'business',
    };
    const lower = await use('v4.6.1', { edition: 'enterprise-below-business' });
    for (const [method, path] of [...routes, ['POST', '/admin/api-key'] as [string, string]]) {
      const r = await lower.call(method, path, method === 'GET' ? {} : { json: {} });
      expect([r.status, r.body], `${method} ${path}`).toEqual([402, plan]);
    }
  });
});

describe('the life of a group', () => {
  it('create, sync; members at once, pairs through the sync; edits refused while syncing', async () => {
    const s = await use('main');
    const member = await newKey(s.call, { name: 'sales-bot', group_ids: [BASIC_GROUP_ID] });
    const { pair } = await ownedPair(s.call);
    await push(s.call, pair, 'deal');
    s.emulator.indexer.drain();
    const made = await create(s, 'Sales');
    expect(made).toMatchObject({
      name: 'Sales',
      users: [],
      cc_pairs: [],
      is_up_to_date: false,
      manager_ids: [],
    });
    const busy = await s.call('PATCH', `/manage/admin/user-group/${made.id}`, {
      json: { user_ids: [member.userId], cc_pair_ids: [pair] },
    });
    expect([busy.status, busy.body]).toEqual([
      404,
      {
        error_code: 'NOT_FOUND',
        detail:
          'Specified user group is currently syncing. Please wait for it to finish syncing, and then try again.',
      },
    ]);
    s.step(SYNC_MS);
    const updated = await s.call<Group & { users: { email: string }[] }>(
      'PATCH',
      `/manage/admin/user-group/${made.id}`,
      { json: { user_ids: [member.userId], cc_pair_ids: [pair] } },
    );
    expect(updated.body).toMatchObject({ is_up_to_date: false, cc_pairs: [{ id: pair }] });
    expect(updated.body.users.map((u) => u.email)).toEqual([
      expect.stringMatching(/^API_KEY__sales-bot@/),
    ]);
    expect(await sizeStatus(s.call, 'deal', member.key)).toBe(404);
    s.step(SYNC_MS);
    expect(await sizeStatus(s.call, 'deal', member.key)).toBe(200);
    // members alone change nothing to sync
    const stranger = await newKey(s.call, { group_ids: [BASIC_GROUP_ID] });
    const added = await s.call<Group>('POST', `/manage/admin/user-group/${made.id}/add-users`, {
      json: { user_ids: [stranger.userId] },
    });
    expect(added.body.is_up_to_date).toBe(true);
    expect(await sizeStatus(s.call, 'deal', stranger.key)).toBe(200);
    const unknown = await s.call('POST', `/manage/admin/user-group/${made.id}/add-users`, {
      json: { user_ids: ['00000000-0000-4000-8000-000000000000'] },
    });
    expect(unknown.body).toEqual({
      error_code: 'NOT_FOUND',
      detail: 'User(s) not found: 00000000-0000-4000-8000-000000000000',
    });
  });

  it('a rename reaches documents through the sync (409 meanwhile); a delete removes the group after it', async () => {
    const s = await use('main');
    const member = await newKey(s.call, { group_ids: [BASIC_GROUP_ID] });
    const { pair } = await ownedPair(s.call);
    const made = await create(s, 'Old', [member.userId], [pair]);
    await push(s.call, pair, 'doc');
    s.emulator.indexer.drain();
    s.step(SYNC_MS);
    const renamed = await s.call<Group>('PATCH', '/manage/admin/user-group/rename', {
      json: { id: made.id, name: 'New' },
    });
    expect(renamed.body).toMatchObject({ name: 'New', is_up_to_date: false });
    expect(await sizeStatus(s.call, 'doc', member.key)).toBe(404);
    const twice = await s.call('PATCH', '/manage/admin/user-group/rename', {
      json: { id: made.id, name: 'X' },
    });
    expect([twice.status, twice.body]).toEqual([
      409,
      { error_code: 'CONFLICT', detail: 'Cannot rename a user group while it is syncing.' },
    ]);
    s.step(SYNC_MS);
    expect(s.emulator.state.documentAccess('doc')?.readers).toContain('group:New');
    expect(await sizeStatus(s.call, 'doc', member.key)).toBe(200);
    expect((await s.call('DELETE', `/manage/admin/user-group/${made.id}`)).body).toBeNull();
    expect((await groups(s)).find((g) => g.id === made.id)).toMatchObject({
      is_up_for_deletion: true,
    });
    s.step(SYNC_MS);
    expect((await groups(s)).map((g) => g.id)).not.toContain(made.id);
    expect(await sizeStatus(s.call, 'doc', member.key)).toBe(404);
  });

  it('a group sync held stuck (control route) never ends until released', async () => {
    const s = await use('main');
    const made = await create(s, 'Stuck');
    const r = await fetch(`${s.emulator.url}/_emulator/user-groups/${made.id}/sync`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${s.emulator.adminKey}` },
      body: JSON.stringify({ stuck: true }),
    });
    expect(r.status).toBe(200);
    s.step(10 * SYNC_MS);
    expect((await groups(s)).find((g) => g.id === made.id)?.is_up_to_date).toBe(false);
    s.emulator.sabotage.stickSync('user-group', made.id, false);
    s.step(0);
    expect((await groups(s)).find((g) => g.id === made.id)?.is_up_to_date).toBe(true);
  });
});

describe('the two lines', () => {
  it('duplicates: 409 on the main line, 400 on release 4.6.1; 4.6.1 lists the seeded groups', async () => {
    const main = await use('main');
    await create(main, 'Dup');
    const dup = await main.call('POST', '/manage/admin/user-group', {
      json: { name: 'Dup', user_ids: [], cc_pair_ids: [] },
    });
    expect([dup.status, dup.body]).toEqual([
      409,
      { error_code: 'DUPLICATE_RESOURCE', detail: "User group with name 'Dup' already exists" },
    ]);
    expect((await groups(main)).map((g) => g.name)).toEqual(['Curators', 'Dup']);
    expect((await groups(main, '?include_default=true')).map((g) => g.name)).toEqual([
      'Admin',
      'Basic',
      'Curators',
      'Dup',
    ]);
    const release = await use('v4.6.1');
    await create(release, 'Dup');
    const again = await release.call('POST', '/manage/admin/user-group', {
      json: { name: 'Dup', user_ids: [], cc_pair_ids: [] },
    });
    expect([again.status, again.body]).toEqual([
      400,
      { detail: "User group with name 'Dup' already exists" },
    ]);
    expect((await groups(release)).map((g) => g.name)).toEqual([
      'Admin',
      'Basic',
      'Curators',
      'Dup',
    ]);
  });

  it("managers on the main line, curators on release 4.6.1: each lacks the other's route", async () => {
    const main = await use('main');
    const m = await newKey(main.call, { group_ids: [BASIC_GROUP_ID] });
    const g = await create(main, 'Team', [m.userId]);
    main.step(SYNC_MS);
    const set = await main.call('PUT', `/manage/admin/user-group/${g.id}/manager`, {
      json: { user_id: m.userId, is_manager: true },
    });
    expect(set.body).toBeNull();
    expect((await main.call('GET', '/me/permissions', { key: m.key })).body).toEqual({
      permissions: ['basic'],
      is_manager: true,
      managed_group_ids: [g.id],
    });
    const curatorRoute = await main.call('POST', `/manage/admin/user-group/${g.id}/set-curator`, {
      json: { user_id: m.userId, is_curator: true },
    });
    expect([curatorRoute.status, curatorRoute.body]).toEqual([404, { detail: 'Not Found' }]);
    const release = await use('v4.6.1');
    const managerRoute = await release.call('PUT', '/manage/admin/user-group/3/manager', {
      json: { user_id: m.userId, is_manager: true },
    });
    expect(managerRoute.status).toBe(404);
    const sets = await release.call('PATCH', '/manage/admin/user-group/3/document-sets', {
      json: { added_document_set_ids: [], removed_document_set_ids: [] },
    });
    expect([sets.status, sets.body]).toEqual([404, { detail: 'Not Found' }]);
  });

  it("the main line guards its seeded groups and its managers' reach", async () => {
    const s = await use('main');
    const renameSeeded = await s.call('PATCH', '/manage/admin/user-group/rename', {
      json: { id: BASIC_GROUP_ID, name: 'X' },
    });
    expect(renameSeeded.body).toEqual({
      error_code: 'CONFLICT',
      detail: 'Cannot rename a default system group.',
    });
    const deleteSeeded = await s.call('DELETE', `/manage/admin/user-group/${BASIC_GROUP_ID}`);
    expect(deleteSeeded.status).toBe(409);
    const pairsOnSeeded = await s.call('PATCH', `/manage/admin/user-group/${BASIC_GROUP_ID}`, {
      json: { user_ids: [], cc_pair_ids: [1] },
    });
    expect(pairsOnSeeded.body).toEqual({
      error_code: 'CONFLICT',
      detail: 'Cannot add connectors to a default system group.',
    });
    const m = await newKey(s.call, { group_ids: [BASIC_GROUP_ID] });
    const g = await create(s, 'Team', [m.userId]);
    s.step(SYNC_MS);
    await s.call('PUT', `/manage/admin/user-group/${g.id}/manager`, {
      json: { user_id: m.userId, is_manager: true },
    });
    const publicPair = await s.call('PATCH', `/manage/admin/user-group/${g.id}`, {
      key: m.key,
      json: { user_ids: [m.userId], cc_pair_ids: [1] },
    });
    expect(publicPair.body).toEqual({
      error_code: 'INSUFFICIENT_PERMISSIONS',
      detail: 'Group managers can only act on private resources within the groups they manage.',
    });
    const itself = await s.call('PATCH', `/manage/admin/user-group/${g.id}`, {
      key: m.key,
      json: { user_ids: [], cc_pair_ids: [] },
    });
    expect(itself.status).toBe(403);
    const other = await s.call('PATCH', `/manage/admin/user-group/${CURATORS_GROUP_ID}`, {
      key: m.key,
      json: { user_ids: [], cc_pair_ids: [] },
    });
    expect(other.status).toBe(403);
    const created = await s.call('POST', '/manage/admin/user-group', {
      key: m.key,
      json: { name: 'Mine', user_ids: [], cc_pair_ids: [] },
    });
    expect(created.body).toEqual({
      error_code: 'INSUFFICIENT_PERMISSIONS',
      detail: 'You do not have the required permissions for this action.',
    });
  });

  it('document sets of a group (main line): both lists at once, unknown sets, the sets go syncing', async () => {
    const s = await use('main');
    const g = await create(s, 'Team');
    await s.call('POST', '/manage/admin/document-set', {
      json: { name: 'Open', description: '', cc_pair_ids: [1], is_public: true },
    });
    s.step(SYNC_MS);
    const both = await s.call('PATCH', `/manage/admin/user-group/${g.id}/document-sets`, {
      json: { added_document_set_ids: [1], removed_document_set_ids: [1] },
    });
    expect(both.body).toEqual({
      error_code: 'INVALID_INPUT',
      detail: 'A document set cannot be both added and removed',
    });
    const unknown = await s.call('PATCH', `/manage/admin/user-group/${g.id}/document-sets`, {
      json: { added_document_set_ids: [9], removed_document_set_ids: [] },
    });
    expect(unknown.body).toEqual({
      error_code: 'DOCUMENT_SET_NOT_FOUND',
      detail: 'Document set 9 does not exist',
    });
    const ok = await s.call('PATCH', `/manage/admin/user-group/${g.id}/document-sets`, {
      json: { added_document_set_ids: [1], removed_document_set_ids: [] },
    });
    expect(ok.body).toBeNull();
    expect(s.emulator.state.documentSets()[0]).toMatchObject({
      groups: [g.id],
      is_up_to_date: false,
    });
    const shown = (await groups(s)).find((x) => x.id === g.id) as Group & {
      document_sets: { id: number }[];
    };
    expect(shown.document_sets.map((x) => x.id)).toEqual([1]);
  });
});
