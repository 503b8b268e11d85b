// Table tests of document sets (docs/deployed-servers.md, "Document sets"): who may create,
// change, delete and list which set on each kind of server, their validation and answers.
// Written out from compat notes §3.
import { describe, expect, it } from 'vitest';
import {
  type Actor,
  DOCUMENT_SET_ANSWERS,
  pairsNotOwnedByGroups,
  type SetFacts,
  type SetRequest,
  scopeRefusalOf,
  setDeleteRefusal,
  setListed,
  setPermissions,
  setWriteRefusal,
} from '../src/index.js';

const admin: Actor = { kind: 'main', userId: 'u-admin', global: true, managedGroupIds: [] };
const manager: Actor = { kind: 'main', userId: 'u-mgr', global: false, managedGroupIds: [1, 2] };
const curator: Actor = { kind: 'v4.6.1', userId: 'u-cur', global: false, managedGroupIds: [1] };
const set = (over: Partial<SetFacts>): SetFacts => ({
  is_public: false,
  groups: [1],
  users: [],
  creator_id: 'someone',
  ...over,
});
const request = (over: Partial<SetRequest>): SetRequest => ({
  ...set({}),
  cc_pair_ids: [5],
  federated_connector_ids: [],
  ...over,
});
const privatePair = { access_type: 'private', group_ids: [1] };

const MANAGER_SCOPE = {
  status: 403,
  body: {
    error_code: 'INSUFFICIENT_PERMISSIONS',
    detail: 'Group managers can only act on private resources within the groups they manage.',
  },
};
const UNREACHABLE = {
  status: 403,
  body: {
    error_code: 'INSUFFICIENT_PERMISSIONS',
    detail: 'Document set references a connector you do not have access to.',
  },
};
const SHARED = {
  status: 403,
  body: {
    error_code: 'INSUFFICIENT_PERMISSIONS',
    detail: 'Deleting a shared document set is restricted to administrators.',
  },
};
const NEEDS_GROUPS = { status: 400, body: { detail: 'Curators must specify 1+ groups' } };
const NOT_CURATED = {
  status: 400,
  body: { detail: "Curators cannot control groups they don't curate" },
};

describe('who may write a set', () => {
  it.each<[string, Actor, SetFacts | undefined, SetRequest, unknown]>([
    [
      'a global holder: anything',
      admin,
      set({ is_public: true }),
      request({ is_public: true, groups: [] }),
      undefined,
    ],
    [
      'a manager: a private set in its groups',
      manager,
      undefined,
      request({ groups: [1, 2] }),
      undefined,
    ],
    [
      'a manager: a private groupless set of its own',
      manager,
      undefined,
      request({ groups: [] }),
      undefined,
    ],
    [
      'a manager: not a public set',
      manager,
      undefined,
      request({ is_public: true }),
      MANAGER_SCOPE,
    ],
    [
      'a manager: not a group it does not manage',
      manager,
      undefined,
      request({ groups: [1, 3] }),
      MANAGER_SCOPE,
    ],
    [
      'a manager: not a set out of its groups',
      manager,
      set({ groups: [3] }),
      request({ groups: [1] }),
      MANAGER_SCOPE,
    ],
    [
      "a manager: not someone else's groupless set",
      manager,
      set({ groups: [] }),
      request({ groups: [] }),
      MANAGER_SCOPE,
    ],
    [
      'a manager: its own groupless set',
      manager,
      set({ groups: [], creator_id: 'u-mgr' }),
      request({ groups: [] }),
      undefined,
    ],
    [
      'a curator (4.6.1): a public set',
      curator,
      undefined,
      request({ is_public: true, groups: [] }),
      undefined,
    ],
    [
      'a curator (4.6.1): a private set needs a group',
      curator,
      undefined,
      request({ groups: [] }),
      NEEDS_GROUPS,
    ],
    [
      'a curator (4.6.1): only groups it curates',
      curator,
      undefined,
      request({ groups: [1, 2] }),
      NOT_CURATED,
    ],
    [
      'a curator (4.6.1): a set of its group',
      curator,
      set({ groups: [1] }),
      request({ groups: [1] }),
      undefined,
    ],
    [
      'a curator (4.6.1): a public set without owner',
      curator,
      set({ is_public: true, groups: [], creator_id: null }),
      request({ is_public: true, groups: [] }),
      undefined,
    ],
    [
      'a curator (4.6.1): not a set of other groups',
      curator,
      set({ groups: [2] }),
      request({ groups: [1] }),
      NOT_CURATED,
    ],
  ])('%s', (_, actor, before, req, answer) => {
    expect(setWriteRefusal(actor, before, req, [privatePair])).toEqual(answer);
  });

  it('a manager attaches only private pairs whose groups it all manages', () => {
    const req = request({ groups: [1] });
    expect(
      setWriteRefusal(manager, undefined, req, [{ access_type: 'public', group_ids: [] }]),
    ).toEqual(UNREACHABLE);
    expect(
      setWriteRefusal(manager, undefined, req, [{ access_type: 'private', group_ids: [1, 3] }]),
    ).toEqual(UNREACHABLE);
    expect(
      setWriteRefusal(manager, undefined, req, [{ access_type: 'private', group_ids: [2] }]),
    ).toBeUndefined();
  });
});

describe('who may delete a set', () => {
  it.each<[string, Actor, SetFacts, unknown]>([
    ['a global holder', admin, set({ is_public: true }), undefined],
    [
      'a manager: its own private groupless set',
      manager,
      set({ groups: [], creator_id: 'u-mgr' }),
      undefined,
    ],
    ['a manager: not a set of its groups', manager, set({ groups: [1] }), SHARED],
    [
      'a manager: not its own public set',
      manager,
      set({ is_public: true, groups: [], creator_id: 'u-mgr' }),
      SHARED,
    ],
    [
      'a curator (4.6.1): its own public set',
      curator,
      set({ is_public: true, groups: [], creator_id: 'u-cur' }),
      undefined,
    ],
    ["a curator (4.6.1): not another group's set", curator, set({ groups: [2] }), NOT_CURATED],
  ])('%s', (_, actor, s, answer) => {
    expect(setDeleteRefusal(actor, s)).toEqual(answer);
  });
});

describe('listings and permissions', () => {
  const basic: Actor = { kind: 'main', userId: 'u-basic', global: false, managedGroupIds: [] };
  it.each<[string, Actor, boolean, number[], SetFacts, boolean, boolean]>([
    ['a basic key: public sets', basic, false, [], set({ is_public: true }), false, true],
    ['a basic key: sets of its groups', basic, false, [1], set({}), false, true],
    [
      'a basic key: sets shared with it',
      basic,
      false,
      [],
      set({ users: ['u-basic'] }),
      false,
      true,
    ],
    ['a basic key: not other private sets', basic, false, [], set({}), false, false],
    ['read:document_sets: every set', basic, true, [], set({}), false, true],
    ["editable: a manager, its groups' sets", manager, false, [], set({ groups: [2] }), true, true],
    [
      'editable: a manager, not public sets',
      manager,
      false,
      [],
      set({ is_public: true }),
      true,
      false,
    ],
    ['editable: a basic key, nothing', basic, true, [], set({ is_public: true }), true, false],
    [
      'main line: a manager also lists the sets it may edit',
      manager,
      false,
      [],
      set({ groups: [2] }),
      false,
      true,
    ],
  ])('%s', (_, actor, readsAll, memberGroupIds, s, editable, listed) => {
    expect(setListed({ actor, readsAll, memberGroupIds }, s, editable)).toBe(listed);
  });

  it('permissions of a listed set (main line)', () => {
    expect(setPermissions(admin, set({}))).toEqual({
      edit: true,
      manage_access: true,
      delete: true,
      publish: true,
    });
    expect(setPermissions(manager, set({ groups: [1] }))).toEqual({
      edit: true,
      manage_access: true,
      delete: false,
      publish: false,
    });
  });
});

describe('validation and answers', () => {
  it('a private pair of a non-public set must be linked to every group of the set', () => {
    const pairs = [
      { id: 1, access_type: 'public', group_ids: [] },
      { id: 2, access_type: 'sync', group_ids: [] },
      { id: 3, access_type: 'private', group_ids: [1, 2] },
      { id: 4, access_type: 'private', group_ids: [1] },
    ];
    expect(pairsNotOwnedByGroups({ is_public: false, groups: [1, 2] }, pairs)).toBe(4);
    expect(pairsNotOwnedByGroups({ is_public: false, groups: [1] }, pairs)).toBeUndefined();
    expect(pairsNotOwnedByGroups({ is_public: true, groups: [1, 2] }, pairs)).toBeUndefined();
    expect(pairsNotOwnedByGroups({ is_public: false, groups: [] }, pairs)).toBeUndefined();
  });

  it.each([
    [
      'main',
      DOCUMENT_SET_ANSWERS.notFound('main', 7),
      {
        status: 404,
        body: { error_code: 'DOCUMENT_SET_NOT_FOUND', detail: 'Document set 7 does not exist' },
      },
    ],
    [
      'v4.6.1',
      DOCUMENT_SET_ANSWERS.notFound('v4.6.1', 7),
      { status: 404, body: { detail: 'Document set 7 does not exist' } },
    ],
    [
      'main',
      DOCUMENT_SET_ANSWERS.invalid('main', 'x'),
      { status: 400, body: { error_code: 'VALIDATION_ERROR', detail: 'x' } },
    ],
    ['seed', DOCUMENT_SET_ANSWERS.invalid('seed', 'x'), { status: 400, body: { detail: 'x' } }],
  ])('%s: %j', (_, answer, expected) => {
    expect(answer).toEqual(expected);
  });

  it('refusals read back: syncing, out of scope, admins only', () => {
    const syncing = DOCUMENT_SET_ANSWERS.invalid(
      'main',
      'Cannot update document set while it is syncing. Please wait.',
    );
    expect(scopeRefusalOf(syncing.status, syncing.body)).toBe('syncing');
    expect(scopeRefusalOf(MANAGER_SCOPE.status, MANAGER_SCOPE.body)).toBe('out-of-scope');
    expect(scopeRefusalOf(NEEDS_GROUPS.status, NEEDS_GROUPS.body)).toBe('out-of-scope');
    expect(scopeRefusalOf(SHARED.status, SHARED.body)).toBe('admins-only');
    expect(
      scopeRefusalOf(400, { detail: 'Cannot share with the default system group(s): Admin' }),
    ).toBe('default-group');
    expect(scopeRefusalOf(404, { detail: 'Document set 7 does not exist' })).toBeUndefined();
    expect(scopeRefusalOf(500, SHARED.body)).toBeUndefined();
  });
});
