// Document sets (compat-trust §3): creation, full replace and deletion with their sync
// (`is_up_to_date`, edits refused meanwhile, deleted sets listed until it ends, a sync held stuck),
// membership by pair and search by set name, validation per kind of server, and the scope of the
// main line's group managers and release 4.6.1's curators. Expected values from compat-trust §3.
import { describe, expect, it } from 'vitest';
import { BASIC_GROUP_ID } from '../src/index.js';
import { emulatorsPerTest, type Started } from './lifecycle-helpers.js';
import { found, newKey, ownedPair, push } from './trust-helpers.js';

const { use } = emulatorsPerTest();
const SYNC_MS = 1000;

type Summary = {
  id: number;
  name: string;
  is_up_to_date: boolean;
  cc_pair_summaries: { id: number }[];
};

async function listed(s: Started, key?: string, editable = false): Promise<Summary[]> {
  const r = await s.call<Summary[]>('GET', `/manage/document-set?get_editable=${editable}`, {
    key,
  });
  expect(r.status).toBe(200);
  return r.body;
}

const body = (over: object = {}) => ({
  name: 'Handbook',
  description: 'The handbook',
  cc_pair_ids: [1],
  is_public: true,
  ...over,
});

describe('the life of a set', () => {
  it('create, sync, search by name; edits refused while syncing; delete, listed until the sync', async () => {
    const s = await use('main');
    await push(s.call, 1, 'in-set', { sections: [{ text: 'policy' }] });
    s.emulator.indexer.drain();
    const created = await s.call<number>('POST', '/manage/admin/document-set', { json: body() });
    expect(created.body).toBe(1);
    expect((await listed(s))[0]).toMatchObject({ id: 1, is_up_to_date: false });
    const edit = await s.call('PATCH', '/manage/admin/document-set', {
      json: { ...body(), id: 1, users: [], groups: [] },
    });
    expect([edit.status, edit.body]).toEqual([
      400,
      {
        error_code: 'VALIDATION_ERROR',
        detail:
          'Cannot update document set while it is syncing. Please wait for it to finish syncing, and then try again.',
      },
    ]);
    expect(await found(s.call, 'policy', { document_set: ['Handbook'] })).toEqual([]);
    s.step(SYNC_MS);
    expect((await listed(s))[0]).toMatchObject({
      is_up_to_date: true,
      cc_pair_summaries: [{ id: 1 }],
    });
    expect(await found(s.call, 'policy', { document_set: ['Handbook'] })).toEqual(['in-set']);
    // a document pushed now picks up the set at once
    await push(s.call, 1, 'later', { sections: [{ text: 'policy too' }] });
    s.emulator.indexer.drain();
    expect(s.emulator.state.documentAccess('later')?.document_sets).toEqual(['Handbook']);
    expect((await s.call('DELETE', '/manage/admin/document-set/1')).body).toBeNull();
    expect(await listed(s)).toMatchObject([{ id: 1, is_up_to_date: false, cc_pair_summaries: [] }]);
    const again = await s.call('DELETE', '/manage/admin/document-set/1');
    expect(again.status).toBe(400);
    s.step(SYNC_MS);
    expect(await listed(s)).toEqual([]);
    expect(s.emulator.state.documentAccess('in-set')?.document_sets).toEqual([]);
  });

  it('a full replace moves the set to other pairs at its sync; the old pair keeps a stale link until then', async () => {
    const s = await use('main');
    const other = await ownedPair(s.call, { access_type: 'public' });
    await push(s.call, 1, 'old-doc');
    await push(s.call, other.pair, 'new-doc');
    s.emulator.indexer.drain();
    await s.call('POST', '/manage/admin/document-set', { json: body() });
    s.step(SYNC_MS);
    await s.call('PATCH', '/manage/admin/document-set', {
      json: { ...body(), id: 1, cc_pair_ids: [other.pair], users: [], groups: [] },
    });
    expect(s.emulator.state.documentSets()[0]).toMatchObject({
      cc_pair_ids: [other.pair],
      stale_pair_ids: [1],
      is_up_to_date: false,
    });
    s.step(SYNC_MS);
    expect(s.emulator.state.documentAccess('old-doc')?.document_sets).toEqual([]);
    expect(s.emulator.state.documentAccess('new-doc')?.document_sets).toEqual(['Handbook']);
  });

  it('a sync held stuck never ends until released (control route)', async () => {
    const s = await use('main');
    await s.call('POST', '/manage/admin/document-set', { json: body() });
    const r = await fetch(`${s.emulator.url}/_emulator/document-sets/1/sync`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${s.emulator.adminKey}` },
      body: JSON.stringify({ stuck: true }),
    });
    expect(await r.json()).toEqual({ id: 1, stuck: true });
    s.step(60 * SYNC_MS);
    expect((await listed(s))[0]?.is_up_to_date).toBe(false);
    s.emulator.sabotage.stickSync('document-set', 1, false);
    s.step(0);
    expect((await listed(s))[0]?.is_up_to_date).toBe(true);
  });
});

describe('validation, per kind of server', () => {
  it.each([
    [
      'main',
      { error_code: 'VALIDATION_ERROR', detail: 'Cannot create a document set with no connectors' },
    ],
    ['v4.6.1', { detail: 'Cannot create a document set with no connectors' }],
    ['seed', { detail: 'Cannot create a document set with no connectors' }],
  ] as const)('%s: no pair is 400 %j', async (kind, answer) => {
    const s = await use(kind);
    const r = await s.call('POST', '/manage/admin/document-set', {
      json: body({ cc_pair_ids: [] }),
    });
    expect([r.status, r.body]).toEqual([400, answer]);
    const unknown = await s.call('DELETE', '/manage/admin/document-set/42');
    expect(unknown.status).toBe(404);
  });

  it('unique names; private pairs linked to every group; the main line refuses seeded groups', async () => {
    const s = await use('main');
    const custom = await s.call<{ id: number }>('POST', '/manage/admin/user-group', {
      json: { name: 'Sales', user_ids: [], cc_pair_ids: [] },
    });
    const privatePair = await ownedPair(s.call);
    await s.call('POST', '/manage/admin/document-set', { json: body() });
    const dup = await s.call('POST', '/manage/admin/document-set', { json: body() });
    expect(dup.body).toEqual({
      error_code: 'VALIDATION_ERROR',
      detail: "A document set named 'Handbook' already exists",
    });
    const notOwned = await s.call('POST', '/manage/admin/document-set', {
      json: body({
        name: 'Sales set',
        is_public: false,
        groups: [custom.body.id],
        cc_pair_ids: [privatePair.pair],
      }),
    });
    expect(notOwned.body).toEqual({
      error_code: 'VALIDATION_ERROR',
      detail: `Connector Credential Pair with ID: '${privatePair.pair}' is not owned by the specified groups`,
    });
    const seeded = await s.call('POST', '/manage/admin/document-set', {
      json: body({ name: 'Basic set', is_public: false, groups: [BASIC_GROUP_ID] }),
    });
    expect(seeded.body).toEqual({
      error_code: 'VALIDATION_ERROR',
      detail: 'Cannot share with the default system group(s): Basic',
    });
  });

  it('the community edition shares a set with no user and no group', async () => {
    const s = await use('main', { edition: 'community' });
    const r = await s.call('POST', '/manage/admin/document-set', {
      json: body({ is_public: false, groups: [3] }),
    });
    expect(r.body).toEqual({
      error_code: 'VALIDATION_ERROR',
      detail: 'Private document sets shared with users or groups need the enterprise edition',
    });
  });
});

describe('who may do what', () => {
  /** A group of `member`, managed by it, with a private pair linked to the group; all synced. */
  async function managedGroup(s: Started, memberId: string) {
    const group = await s.call<{ id: number }>('POST', '/manage/admin/user-group', {
      json: { name: 'Sales', user_ids: [memberId], cc_pair_ids: [] },
    });
    const pair = await ownedPair(s.call, { groups: [group.body.id] });
    s.step(SYNC_MS);
    const manager = await s.call('PUT', `/manage/admin/user-group/${group.body.id}/manager`, {
      json: { user_id: memberId, is_manager: true },
    });
    expect(manager.status).toBe(200);
    return { group: group.body.id, pair: pair.pair };
  }

  it('a group manager (main line): private sets of its groups, with pairs it reaches; deletes only its groupless sets', async () => {
    const s = await use('main');
    const manager = await newKey(s.call, { group_ids: [BASIC_GROUP_ID] });
    const { group, pair } = await managedGroup(s, manager.userId);
    const mine = { name: 'Sales docs', is_public: false, groups: [group], cc_pair_ids: [pair] };
    const created = await s.call<number>('POST', '/manage/admin/document-set', {
      key: manager.key,
      json: body(mine),
    });
    expect(created.status).toBe(200);
    const pub = await s.call('POST', '/manage/admin/document-set', {
      key: manager.key,
      json: body({ name: 'Public docs', cc_pair_ids: [pair] }),
    });
    expect([pub.status, pub.body]).toEqual([
      403,
      {
        error_code: 'INSUFFICIENT_PERMISSIONS',
        detail: 'Group managers can only act on private resources within the groups they manage.',
      },
    ]);
    const reach = await s.call('POST', '/manage/admin/document-set', {
      key: manager.key,
      json: body({ ...mine, name: 'Reach', cc_pair_ids: [1] }),
    });
    expect(reach.body).toEqual({
      error_code: 'INSUFFICIENT_PERMISSIONS',
      detail: 'Document set references a connector you do not have access to.',
    });
    s.step(SYNC_MS);
    const deleted = await s.call('DELETE', `/manage/admin/document-set/${created.body}`, {
      key: manager.key,
    });
    expect(deleted.body).toEqual({
      error_code: 'INSUFFICIENT_PERMISSIONS',
      detail: 'Deleting a shared document set is restricted to administrators.',
    });
    expect((await listed(s, manager.key, true)).map((x) => x.name)).toEqual(['Sales docs']);
    const basic = await newKey(s.call, { group_ids: [BASIC_GROUP_ID] });
    expect(await listed(s, basic.key)).toEqual([]);
    expect(await listed(s, manager.key)).toMatchObject([
      {
        name: 'Sales docs',
        permissions: { edit: true, manage_access: true, delete: false, publish: false },
      },
    ]);
  });

  it('a curator (release 4.6.1): public sets, or sets naming groups it curates', async () => {
    const s = await use('v4.6.1');
    const curator = await newKey(s.call, { role: 'curator' });
    // a curator key joins no group and is limited until a group grants it something
    expect(
      (await s.call('POST', '/manage/admin/document-set', { key: curator.key, json: body() }))
        .status,
    ).toBe(403);
    await s.call('POST', `/manage/admin/user-group/${BASIC_GROUP_ID}/add-users`, {
      json: { user_ids: [curator.userId] },
    });
    const group = await s.call<{ id: number }>('POST', '/manage/admin/user-group', {
      json: { name: 'Ops', user_ids: [curator.userId], cc_pair_ids: [] },
    });
    s.step(SYNC_MS);
    await s.call('POST', `/manage/admin/user-group/${group.body.id}/set-curator`, {
      json: { user_id: curator.userId, is_curator: true },
    });
    const groupless = await s.call('POST', '/manage/admin/document-set', {
      key: curator.key,
      json: body({ is_public: false }),
    });
    expect([groupless.status, groupless.body]).toEqual([
      400,
      { detail: 'Curators must specify 1+ groups' },
    ]);
    const foreign = await s.call('POST', '/manage/admin/document-set', {
      key: curator.key,
      json: body({ is_public: false, groups: [BASIC_GROUP_ID] }),
    });
    expect(foreign.body).toEqual({ detail: "Curators cannot control groups they don't curate" });
    const ok = await s.call('POST', '/manage/admin/document-set', {
      key: curator.key,
      json: body(),
    });
    expect(ok.status).toBe(200);
    expect((await listed(s))[0]).not.toHaveProperty('permissions');
  });
});
