// The verification and scoping calls of the client against a recording fetch: what each sends,
// how route variants fall back (manager/set-curator, the group document-set call), and the errors
// servers give when they refuse (editions and plans, syncing, scope). Answers are written out
// from docs/deployed-servers.md.
import { describe, expect, it } from 'vitest';
import {
  FeatureUnavailableError,
  NotFoundError,
  PermissionDeniedError,
  SyncInProgressError,
} from '../src/index.js';
import { BASE, client, json, mockFetch } from './helpers.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

const NOT_FOUND_ROUTE = () => json({ detail: 'Not Found' }, 404);
const set = (over: object = {}) => ({
  id: 7,
  name: 'Handbook',
  description: null,
  cc_pair_summaries: [{ id: 2, name: 'Docs', source: 'web', access_type: 'private' }],
  is_up_to_date: true,
  is_public: false,
  users: [],
  groups: [3],
  federated_connector_summaries: [],
  ...over,
});
const group = (over: object = {}) => ({
  id: 4,
  name: 'Sales',
  users: [],
  cc_pairs: [],
  document_sets: [],
  is_up_to_date: true,
  is_up_for_deletion: false,
  ...over,
});

describe('search and the index', () => {
  it('admin search posts the query with empty filters by default and answers the documents', async () => {
    const { fetch, calls } = mockFetch(() => json({ documents: [{ document_id: 'd1' }] }));
    const kis = client(fetch);
    expect(await kis.search.admin('onboarding')).toEqual([{ document_id: 'd1' }]);
    expect(await kis.search.admin('', { filters: { source_type: ['file'] } })).toHaveLength(1);
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', `${BASE}/admin/search`, { query: 'onboarding', filters: {} }],
      ['POST', `${BASE}/admin/search`, { query: '', filters: { source_type: ['file'] } }],
    ]);
  });

  it('hidden and boost: their bodies; the boost listing its query', async () => {
    const { fetch, calls } = mockFetch((c) =>
      c.method === 'GET' ? json([]) : json({ success: true, message: 'Updated document boost' }),
    );
    const kis = client(fetch);
    await kis.documents.setHidden('d1', true);
    await kis.documents.setBoost('d1', -2);
    await kis.documents.boosted({ limit: 5 });
    expect(calls.map((c) => [c.method, c.url, c.body ?? null])).toEqual([
      ['POST', `${BASE}/manage/admin/doc-hidden`, { document_id: 'd1', hidden: true }],
      ['POST', `${BASE}/manage/admin/doc-boosts`, { document_id: 'd1', boost: -2 }],
      ['GET', `${BASE}/manage/admin/doc-boosts?ascending=false&limit=5`, null],
    ]);
    await expect(kis.documents.setBoost('d1', 1.5)).rejects.toThrow(TypeError);
  });

  it('search settings: null without a switch; reindex progress on an older server is a missing feature', async () => {
    const { fetch } = mockFetch((c) =>
      c.url.endsWith('reindex-progress') ? NOT_FOUND_ROUTE() : json(null),
    );
    const kis = client(fetch);
    expect(await kis.searchSettings.secondary()).toBeNull();
    const error = await rejection(kis.searchSettings.reindexProgress());
    expect(FeatureUnavailableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'release', sinceRelease: '4.5.0', status: 404 });
    expect((error as Error).message).toContain('release 4.5.0 or later');
  });
});

describe('document sets', () => {
  it('create answers the bare id; update and delete send what the servers take', async () => {
    const { fetch, calls } = mockFetch((c) => json(c.method === 'POST' ? 7 : null));
    const kis = client(fetch);
    const id = await kis.documentSets.create({
      name: 'Handbook',
      description: 'The handbook',
      cc_pair_ids: [2],
      is_public: true,
    });
    expect(id).toBe(7);
    await kis.documentSets.update({
      id: 7,
      name: 'Handbook',
      description: 'x',
      cc_pair_ids: [2],
      is_public: true,
      users: [],
      groups: [],
    });
    await kis.documentSets.delete(7);
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ['POST', `${BASE}/manage/admin/document-set`],
      ['PATCH', `${BASE}/manage/admin/document-set`],
      ['DELETE', `${BASE}/manage/admin/document-set/7`],
    ]);
  });

  it('waitUntilSynced polls the listing until the set is up to date; waitUntilGone until it is absent', async () => {
    const { fetch, calls } = mockFetch((_, i) =>
      json(i < 2 ? [set({ is_up_to_date: false })] : i < 4 ? [set()] : []),
    );
    const kis = client(fetch);
    expect((await kis.documentSets.waitUntilSynced(7)).is_up_to_date).toBe(true);
    await kis.documentSets.waitUntilGone(7);
    expect(calls.length).toBe(5);
    expect(calls[0]?.url).toBe(`${BASE}/manage/document-set?get_editable=false`);
  });

  it('a change while the set syncs is a SyncInProgressError; a curator out of its groups is out of scope', async () => {
    const { fetch } = mockFetch((c) =>
      c.method === 'PATCH'
        ? json(
            {
              error_code: 'VALIDATION_ERROR',
              detail:
                'Cannot update document set while it is syncing. Please wait for it to finish syncing, and then try again.',
            },
            400,
          )
        : json({ detail: "Curators cannot control groups they don't curate" }, 400),
    );
    const kis = client(fetch, { maxRetries: 0 });
    const body = {
      id: 7,
      name: 'n',
      description: '',
      cc_pair_ids: [1],
      is_public: false,
      users: [],
      groups: [1],
    };
    const syncing = await rejection(kis.documentSets.update(body));
    expect(SyncInProgressError.isInstance(syncing)).toBe(true);
    const scope = await rejection(kis.documentSets.create({ ...body, groups: [9] }));
    expect(PermissionDeniedError.isInstance(scope)).toBe(true);
    expect(scope).toMatchObject({ status: 400, reason: 'out-of-scope' });
  });
});

describe('user groups', () => {
  it('without the enterprise edition (404 Not Found) or below the Business plan (402): FeatureUnavailableError', async () => {
    const community = client(mockFetch(NOT_FOUND_ROUTE).fetch, { maxRetries: 0 });
    const error = await rejection(community.userGroups.list());
    expect(FeatureUnavailableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'edition', feature: 'user groups', status: 404 });
    expect((error as Error).message).toContain('enterprise edition');
    const plan = client(
      mockFetch(() =>
        json(
          {
            error_code: 'FEATURE_NOT_AVAILABLE',
            detail: 'This feature requires the Business plan.',
            required_tier: 'business',
          },
          402,
        ),
      ).fetch,
      { maxRetries: 0 },
    );
    const refused = await rejection(plan.userGroups.addUsers(4, ['u']));
    expect(refused).toMatchObject({ reason: 'plan', requiredTier: 'business', status: 402 });
    expect(FeatureUnavailableError.isInstance(refused)).toBe(true);
  });

  it('a 404 of a group that syncs is SyncInProgressError; an unknown group stays NotFoundError', async () => {
    const { fetch } = mockFetch((c) =>
      c.url.endsWith('/4')
        ? json(
            {
              error_code: 'NOT_FOUND',
              detail:
                'Specified user group is currently syncing. Please wait for it to finish syncing, and then try again.',
            },
            404,
          )
        : json({ error_code: 'NOT_FOUND', detail: "User group with id '5' not found" }, 404),
    );
    const kis = client(fetch, { maxRetries: 0 });
    const body = { user_ids: [], cc_pair_ids: [] };
    expect(SyncInProgressError.isInstance(await rejection(kis.userGroups.update(4, body)))).toBe(
      true,
    );
    expect(NotFoundError.isInstance(await rejection(kis.userGroups.update(5, body)))).toBe(true);
  });

  it("setManager: the main line's manager route, else release 4.6.1's set-curator, remembered", async () => {
    const { fetch, calls } = mockFetch((c) =>
      c.url.endsWith('/manager') ? NOT_FOUND_ROUTE() : json(null),
    );
    const kis = client(fetch);
    await kis.userGroups.setManager(4, 'u-1', true);
    await kis.userGroups.setManager(4, 'u-2', false);
    expect(calls.map((c) => [c.method, c.url.slice(BASE.length), c.body])).toEqual([
      ['PUT', '/manage/admin/user-group/4/manager', { user_id: 'u-1', is_manager: true }],
      ['POST', '/manage/admin/user-group/4/set-curator', { user_id: 'u-1', is_curator: true }],
      ['POST', '/manage/admin/user-group/4/set-curator', { user_id: 'u-2', is_curator: false }],
    ]);
  });

  it("shareDocumentSets: the main line's group call", async () => {
    const { fetch, calls } = mockFetch(() => json(null));
    await client(fetch).userGroups.shareDocumentSets(4, { add: [7, 7], remove: [8] });
    expect(calls.map((c) => [c.method, c.url.slice(BASE.length), c.body])).toEqual([
      [
        'PATCH',
        '/manage/admin/user-group/4/document-sets',
        { added_document_set_ids: [7], removed_document_set_ids: [8] },
      ],
    ]);
  });

  it('shareDocumentSets on release 4.6.1: each set is replaced with its groups changed', async () => {
    const { fetch, calls } = mockFetch((c) => {
      if (c.url.endsWith('/document-sets')) return NOT_FOUND_ROUTE();
      if (c.url.includes('/manage/admin/user-group?')) return json([group()]);
      if (c.url.includes('/manage/document-set?'))
        return json([set(), set({ id: 8, groups: [4, 3] })]);
      return json(null);
    });
    const kis = client(fetch);
    await kis.userGroups.shareDocumentSets(4, { add: [7], remove: [8] });
    const patches = calls.filter((c) => c.method === 'PATCH' && c.url.endsWith('/document-set'));
    expect(patches.map((c) => c.body)).toEqual([
      {
        id: 7,
        name: 'Handbook',
        description: '',
        cc_pair_ids: [2],
        is_public: false,
        users: [],
        groups: [3, 4],
        federated_connectors: [],
      },
      {
        id: 8,
        name: 'Handbook',
        description: '',
        cc_pair_ids: [2],
        is_public: false,
        users: [],
        groups: [3],
        federated_connectors: [],
      },
    ]);
    // the route is remembered: the next call goes to the sets at once
    calls.length = 0;
    await kis.userGroups.shareDocumentSets(4, { remove: [7] });
    expect(calls.some((c) => c.url.endsWith('/document-sets'))).toBe(false);
  });

  it('a main-line manager out of its groups is PermissionDeniedError out-of-scope; a missing permission says so', async () => {
    const { fetch } = mockFetch((c) =>
      c.method === 'PATCH'
        ? json(
            {
              error_code: 'INSUFFICIENT_PERMISSIONS',
              detail:
                'Group managers can only act on private resources within the groups they manage.',
            },
            403,
          )
        : json(
            {
              error_code: 'INSUFFICIENT_PERMISSIONS',
              detail: 'You do not have the required permissions for this action.',
            },
            403,
          ),
    );
    const kis = client(fetch, { maxRetries: 0 });
    const scope = await rejection(kis.userGroups.update(4, { user_ids: [], cc_pair_ids: [1] }));
    expect(scope).toMatchObject({ reason: 'out-of-scope', status: 403 });
    const missing = await rejection(
      kis.userGroups.create({ name: 'x', user_ids: [], cc_pair_ids: [] }),
    );
    expect(missing).toMatchObject({ reason: 'missing-permission' });
    expect(PermissionDeniedError.isInstance(missing)).toBe(true);
  });
});
