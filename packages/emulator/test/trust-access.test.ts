// Who sees a pushed document (compat-trust §2): readers from the pairs that hold it (public, the
// creator of each pair's credential, the enterprise edition's groups), stamped when it is indexed
// or synced; `external_access` dropped; no admin bypass. Also what tests read and do behind the
// API's back: the readers view, a pair's access changed, chunks dropped. Expected values written
// out from compat-trust.md §2.
import { describe, expect, it } from 'vitest';
import { BASIC_GROUP_ID } from '../src/index.js';
import { CURATOR, emulatorsPerTest, type Started } from './lifecycle-helpers.js';
import { newKey, ownedPair, push, sizeStatus } from './trust-helpers.js';

const { use } = emulatorsPerTest();

const curatorEmail = (s: Started) =>
  s.emulator.state.accounts().find((a) => a.name === 'kis-emulator-curator')?.email;

/** A group of `members` over `pairs`, synced; its id. */
async function group(s: Started, name: string, members: string[], pairs: number[]) {
  const r = await s.call<{ id: number }>('POST', '/manage/admin/user-group', {
    json: { name, user_ids: members, cc_pair_ids: pairs },
  });
  expect(r.status).toBe(200);
  s.step(1000);
  return r.body.id;
}

describe('readers of a pushed document', () => {
  it('pair 1: everyone; a private pair: the creator of its credential; external_access dropped', async () => {
    const s = await use('main');
    await push(s.call, 1, 'open', {
      external_access: {
        external_user_emails: ['x@example.com'],
        external_user_group_ids: [],
        is_public: false,
      },
    });
    const { pair } = await ownedPair(s.call, { key: CURATOR });
    await push(s.call, pair, 'closed', {}, CURATOR);
    s.emulator.indexer.drain();
    expect(s.emulator.state.documentAccess('open')?.readers).toEqual(['PUBLIC']);
    expect(s.emulator.state.documentAccess('closed')?.readers).toEqual([
      `user_email:${curatorEmail(s)}`,
    ]);
    const reader = await newKey(s.call, { group_ids: [BASIC_GROUP_ID] });
    expect(await sizeStatus(s.call, 'open', reader.key)).toBe(200);
    expect(await sizeStatus(s.call, 'closed', reader.key)).toBe(404);
  });

  it('a public pair: everyone and its owner; a sync pair: nobody', async () => {
    const s = await use('main');
    const pub = await ownedPair(s.call, { access_type: 'public' });
    const sync = await ownedPair(s.call, { access_type: 'sync' });
    await push(s.call, pub.pair, 'pub');
    await push(s.call, sync.pair, 'synced');
    s.emulator.indexer.drain();
    const admin = s.emulator.state.accounts().find((a) => a.name === 'kis-emulator-admin')?.email;
    expect(s.emulator.state.documentAccess('pub')?.readers).toEqual([
      'PUBLIC',
      `user_email:${admin}`,
    ]);
    expect(s.emulator.state.documentAccess('synced')?.readers).toEqual([]);
    expect(await sizeStatus(s.call, 'synced')).toBe(404);
  });

  it('the groups of a pair, by name (enterprise edition): members see its documents', async () => {
    const s = await use('main');
    const member = await newKey(s.call, { name: 'sales-bot', group_ids: [BASIC_GROUP_ID] });
    const { pair } = await ownedPair(s.call, { key: CURATOR });
    await push(s.call, pair, 'before', {}, CURATOR);
    s.emulator.indexer.drain();
    await group(s, 'Sales', [member.userId], [pair]);
    // the group's sync stamped the document pushed before; one pushed now is stamped at once
    await push(s.call, pair, 'after', {}, CURATOR);
    s.emulator.indexer.drain();
    for (const id of ['before', 'after']) {
      expect(s.emulator.state.documentAccess(id)?.readers).toContain('group:Sales');
      expect(await sizeStatus(s.call, id, member.key), id).toBe(200);
    }
  });

  it('the community edition stores group links and ignores them', async () => {
    const s = await use('main', { edition: 'community' });
    const { pair } = await ownedPair(s.call, { key: CURATOR, groups: [BASIC_GROUP_ID + 1] });
    await push(s.call, pair, 'doc', {}, CURATOR);
    s.emulator.indexer.drain();
    expect(s.emulator.state.documentAccess('doc')?.readers).toEqual([
      `user_email:${curatorEmail(s)}`,
    ]);
    expect((await s.call('GET', '/manage/admin/user-group')).body).toEqual({ detail: 'Not Found' });
  });

  it('a push skipped as unchanged links a second pair without re-stamping; a changed one re-stamps', async () => {
    const s = await use('main');
    const first = await ownedPair(s.call, { key: CURATOR });
    const second = await ownedPair(s.call, { access_type: 'public' });
    await push(s.call, first.pair, 'shared', {}, CURATOR);
    s.emulator.indexer.drain();
    // pushed again unchanged (same time, same content) into a second pair: linked, not re-stamped
    const again = await push(s.call, second.pair, 'shared');
    expect(again.already_existed).toBe(true);
    s.emulator.indexer.drain();
    const access = s.emulator.state.documentAccess('shared');
    expect(access?.readers).toEqual([`user_email:${curatorEmail(s)}`]);
    expect(access?.pair_readers).toContain('PUBLIC');
    // a changed push re-indexes it: both pairs' readers
    await push(s.call, second.pair, 'shared', { sections: [{ text: 'new words' }] });
    s.emulator.indexer.drain();
    expect(s.emulator.state.documentAccess('shared')?.readers).toContain('PUBLIC');
  });
});

describe('the main line at association', () => {
  it('refuses the seeded groups; release 4.6.1 does not check', async () => {
    const s = await use('main');
    const credential = await s.call<{ id: number }>('POST', '/manage/credential', {
      json: {
        source: 'jira',
        admin_public: true,
        credential_json: { jira_user_email: 'a', jira_api_token: 'b' },
      },
    });
    const connector = await s.call<{ id: number }>('POST', '/manage/admin/connector', {
      json: {
        name: 'Shared',
        source: 'jira',
        input_type: 'poll',
        access_type: 'private',
        connector_specific_config: {
          jira_base_url: 'https://example.atlassian.net',
          project_key: 'K',
        },
      },
    });
    const r = await s.call(
      'PUT',
      `/manage/connector/${connector.body.id}/credential/${credential.body.id}`,
      {
        json: { name: 'Shared', access_type: 'private', groups: [1, 2] },
      },
    );
    expect([r.status, r.body]).toEqual([
      400,
      {
        error_code: 'INVALID_INPUT',
        detail: 'Cannot share with the default system group(s): Admin, Basic',
      },
    ]);
    const release = await use('v4.6.1');
    await ownedPair(release.call, { groups: [1, 2] });
  });
});

describe("behind the API's back", () => {
  it('a pair made public without the API: its documents keep their readers until re-indexed', async () => {
    const s = await use('main');
    const { pair } = await ownedPair(s.call, { key: CURATOR });
    await push(s.call, pair, 'doc', {}, CURATOR);
    s.emulator.indexer.drain();
    s.emulator.sabotage.setPairAccess(pair, { access_type: 'public' });
    expect(s.emulator.state.documentAccess('doc')).toMatchObject({
      readers: [`user_email:${curatorEmail(s)}`],
      pair_readers: ['PUBLIC', `user_email:${curatorEmail(s)}`],
    });
    expect(await sizeStatus(s.call, 'doc')).toBe(404);
    const control = await fetch(`${s.emulator.url}/_emulator/pairs/${pair}/access`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${s.emulator.adminKey}` },
      body: JSON.stringify({ access_type: 'private', groups: [3] }),
    });
    expect(await control.json()).toEqual({ cc_pair_id: pair, access_type: 'private', groups: [3] });
    expect(s.emulator.state.documentAccess('doc')?.pair_readers).toEqual([
      'group:Curators',
      `user_email:${curatorEmail(s)}`,
    ]);
  });

  it('chunks dropped: still stored and listed, no longer searchable', async () => {
    const s = await use('main');
    await push(s.call, 1, 'doc');
    s.emulator.indexer.drain();
    const r = await fetch(`${s.emulator.url}/_emulator/documents/doc/drop-chunks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.emulator.adminKey}` },
    });
    expect(await r.json()).toMatchObject({ stored: true, chunks: 0, readers: [] });
    expect(await sizeStatus(s.call, 'doc')).toBe(404);
    const listed = await s.call<{ document_id: string }[]>('GET', '/svc-api/connector-docs/1');
    expect(listed.body.map((d) => d.document_id)).toEqual(['doc']);
    const view = await fetch(`${s.emulator.url}/_emulator/documents/doc/access`, {
      headers: { authorization: `Bearer ${s.emulator.adminKey}` },
    });
    expect(await view.json()).toMatchObject({ stored: true, chunks: 0, pair_readers: ['PUBLIC'] });
  });
});
