// Table tests of user groups (docs/deployed-servers.md, "User groups"): listing scope, who may
// change which group, the main line's guards, and the answers per kind. From compat notes §4.
import { describe, expect, it } from 'vitest';
import {
  type Actor,
  groupChangeRefusal,
  groupListed,
  groupWriteRefusal,
  managedGroupIds,
  scopeRefusalOf,
  USER_GROUP_ANSWERS,
  USER_GROUP_TEXTS,
} from '../src/index.js';

const admin = {
  kind: 'main',
  userId: 'a',
  global: true,
  managedGroupIds: [],
  isAdmin: true,
  permissions: ['admin'],
} as const;
const manager = {
  kind: 'main',
  userId: 'm',
  global: false,
  managedGroupIds: [5],
  isAdmin: false,
  permissions: ['basic'],
} as const;
const curator: Actor = { kind: 'v4.6.1', userId: 'c', global: false, managedGroupIds: [5] };
const custom = { id: 5, is_default: false };
const seeded = { id: 1, is_default: true };

describe('who manages which group', () => {
  const memberships = [
    { group_id: 5, is_manager: true },
    { group_id: 6, is_manager: false },
  ];
  it.each([
    ['main', 'basic', [5]],
    ['v4.6.1', 'curator', [5]],
    ['v4.6.1', 'global_curator', [5, 6]],
    ['v4.6.1', 'basic', []],
    ['seed', 'curator', []],
  ] as const)('%s, role %s: %j', (kind, role, ids) => {
    expect(managedGroupIds(kind, role, memberships)).toEqual(ids);
  });
});

describe('listing and writing', () => {
  it('global readers list every custom group (seeded ones on request); managers theirs', () => {
    expect(groupListed(admin, custom, false)).toBe(true);
    expect(groupListed(admin, seeded, false)).toBe(false);
    expect(groupListed(admin, seeded, true)).toBe(true);
    expect(groupListed(manager, custom, false)).toBe(true);
    expect(groupListed(manager, { id: 6, is_default: false }, false)).toBe(false);
  });

  it('managers and curators change only their groups', () => {
    expect(groupWriteRefusal(admin, custom)).toBeUndefined();
    expect(groupWriteRefusal(manager, custom)).toBeUndefined();
    expect(groupWriteRefusal(manager, { id: 6, is_default: false })).toEqual({
      status: 403,
      body: { error_code: 'INSUFFICIENT_PERMISSIONS', detail: USER_GROUP_TEXTS.managerScope },
    });
    expect(groupWriteRefusal(curator, { id: 6, is_default: false })).toEqual({
      status: 403,
      body: { detail: "Curators cannot control groups they don't curate" },
    });
  });

  const change = (over: object) => ({ user_ids: ['m'], cc_pairs: [], grants: [], ...over });
  it.each([
    [
      'the seeded groups take no pairs',
      admin,
      seeded,
      change({ cc_pairs: [{ access_type: 'private', group_ids: [] }] }),
      USER_GROUP_ANSWERS.conflict('main', 'Cannot add connectors to a default system group.'),
    ],
    [
      'members of a seeded group: full admins only',
      manager,
      seeded,
      change({}),
      USER_GROUP_ANSWERS.outOfScope('main', USER_GROUP_TEXTS.defaultMembers),
    ],
    [
      "an admin changes a seeded group's members",
      admin,
      seeded,
      change({ user_ids: ['x'] }),
      undefined,
    ],
    [
      'a manager: private pairs of its groups',
      manager,
      custom,
      change({ cc_pairs: [{ access_type: 'private', group_ids: [5] }] }),
      undefined,
    ],
    [
      'a manager: not a public pair',
      manager,
      custom,
      change({ cc_pairs: [{ access_type: 'public', group_ids: [] }] }),
      USER_GROUP_ANSWERS.outOfScope('main', USER_GROUP_TEXTS.managerScope),
    ],
    [
      'a manager: not dropping itself',
      manager,
      custom,
      change({ user_ids: ['x'] }),
      USER_GROUP_ANSWERS.outOfScope('main', USER_GROUP_TEXTS.managerSelfRemoval),
    ],
    [
      'a manager: add-users leaves itself alone',
      manager,
      custom,
      { user_ids: ['x'], grants: [] },
      undefined,
    ],
    [
      'a manager: not a group granting what it lacks',
      manager,
      custom,
      change({ grants: ['manage:connectors'] }),
      USER_GROUP_ANSWERS.outOfScope('main', USER_GROUP_TEXTS.managerGrants),
    ],
  ])('%s', (_, actor, group, ch, answer) => {
    expect(groupChangeRefusal(actor, group, ch)).toEqual(answer);
  });

  it("release 4.6.1 has none of the main line's guards", () => {
    expect(
      groupChangeRefusal(
        { ...curator, isAdmin: false, permissions: [] },
        seeded,
        change({ cc_pairs: [{ access_type: 'public', group_ids: [] }] }),
      ),
    ).toBeUndefined();
  });
});

describe('answers', () => {
  it.each([
    [USER_GROUP_ANSWERS.notFound('main', 'x'), 404, { error_code: 'NOT_FOUND', detail: 'x' }],
    [USER_GROUP_ANSWERS.notFound('v4.6.1', 'x'), 404, { detail: 'x' }],
    [
      USER_GROUP_ANSWERS.duplicate('main', 'Eng'),
      409,
      { error_code: 'DUPLICATE_RESOURCE', detail: "User group with name 'Eng' already exists" },
    ],
    [
      USER_GROUP_ANSWERS.duplicate('v4.6.1', 'Eng'),
      400,
      { detail: "User group with name 'Eng' already exists" },
    ],
    [USER_GROUP_ANSWERS.conflict('main', 'x'), 409, { error_code: 'CONFLICT', detail: 'x' }],
    [
      USER_GROUP_ANSWERS.invalidInput('main', 'x'),
      400,
      { error_code: 'INVALID_INPUT', detail: 'x' },
    ],
    [
      USER_GROUP_ANSWERS.valueError('User(s) not found: u'),
      400,
      { message: 'User(s) not found: u' },
    ],
  ])('%j', (answer, status, body) => {
    expect(answer).toEqual({ status, body });
  });

  it('syncing refusals read back whatever the status', () => {
    const syncing = USER_GROUP_ANSWERS.notFound('main', USER_GROUP_TEXTS.syncing);
    expect(scopeRefusalOf(syncing.status, syncing.body)).toBe('syncing');
    const rename = USER_GROUP_ANSWERS.conflict('main', USER_GROUP_TEXTS.renameSyncing);
    expect(scopeRefusalOf(rename.status, rename.body)).toBe('syncing');
    const dflt = USER_GROUP_ANSWERS.conflict('main', USER_GROUP_TEXTS.defaultDelete);
    expect(scopeRefusalOf(dflt.status, dflt.body)).toBe('default-group');
  });
});
