// Deleting an ingested document (compat-trust §6): 404 unknown, 400 not created through ingestion,
// and on the main line 403 unless the key can edit every pair holding it, admins too when no pair
// does; release 4.6.1 checks no pair. The document leaves every index and every pair. From
// compat-trust.md §6.
import { describe, expect, it } from 'vitest';
import { BASIC_GROUP_ID } from '../src/index.js';
import { emulatorsPerTest, type Started } from './lifecycle-helpers.js';
import { newKey, ownedPair, push } from './trust-helpers.js';

const { use } = emulatorsPerTest();
const NOT_EDITABLE = {
  error_code: 'INSUFFICIENT_PERMISSIONS',
  detail: "Connection not found for current user's permissions",
};

/** A document left with no pair: its connector deleted at once (its pairs with it). */
async function orphan(s: Started, id: string) {
  const { pair, connector } = await ownedPair(s.call);
  await push(s.call, pair, id);
  expect((await s.call('DELETE', `/manage/admin/connector/${connector}`)).status).toBe(200);
  expect(s.emulator.state.document(id)?.cc_pair_ids).toEqual([]);
}

describe('deleting an ingested document', () => {
  it('main line: an admin deletes from every pair; a document no pair holds is 403 even for it', async () => {
    const s = await use('main');
    const { pair } = await ownedPair(s.call);
    await push(s.call, pair, 'shared');
    await push(s.call, 1, 'shared');
    s.emulator.indexer.drain();
    expect((await s.call('DELETE', '/svc-api/ingestion/shared')).body).toBeNull();
    expect(s.emulator.state.document('shared')).toBeUndefined();
    await orphan(s, 'orphan');
    const r = await s.call('DELETE', '/svc-api/ingestion/orphan');
    expect([r.status, r.body]).toEqual([403, NOT_EDITABLE]);
  });

  it('main line: a group manager deletes documents of its pairs only', async () => {
    const s = await use('main');
    const m = await newKey(s.call, { group_ids: [BASIC_GROUP_ID] });
    const group = await s.call<{ id: number }>('POST', '/manage/admin/user-group', {
      json: { name: 'Team', user_ids: [m.userId], cc_pair_ids: [] },
    });
    const { pair } = await ownedPair(s.call, { groups: [group.body.id] });
    s.step(1000);
    await s.call('PUT', `/manage/admin/user-group/${group.body.id}/manager`, {
      json: { user_id: m.userId, is_manager: true },
    });
    await push(s.call, pair, 'ours');
    await push(s.call, pair, 'also-public');
    await push(s.call, 1, 'also-public');
    expect((await s.call('DELETE', '/svc-api/ingestion/ours', { key: m.key })).status).toBe(200);
    const refused = await s.call('DELETE', '/svc-api/ingestion/also-public', { key: m.key });
    expect([refused.status, refused.body]).toEqual([403, NOT_EDITABLE]);
  });

  it('release 4.6.1 checks no pair; every kind refuses a document a connector indexed', async () => {
    const s = await use('v4.6.1');
    await orphan(s, 'orphan');
    expect((await s.call('DELETE', '/svc-api/ingestion/orphan')).status).toBe(200);
    for (const kind of ['main', 'v4.6.1', 'seed'] as const) {
      const t = await use(kind);
      await fetch(`${t.emulator.url}/_emulator/documents`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${t.emulator.adminKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          document: {
            id: 'crawled',
            semantic_identifier: 'c',
            sections: [{ text: 'x' }],
            metadata: {},
          },
        }),
      });
      const r = await t.call('DELETE', '/svc-api/ingestion/crawled');
      expect(r.status, kind).toBe(400);
      expect((await t.call('DELETE', '/svc-api/ingestion/unknown')).status, kind).toBe(404);
    }
  });
});
