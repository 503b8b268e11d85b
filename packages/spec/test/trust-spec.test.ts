// The verification and scoping calls as the bundled document describes them
// (docs/deployed-servers.md, "Is a document searchable?", "Document sets", "User groups", "Model
// switch"), and their agreement with the rule book: the answers in the document's examples are
// the rule book's. Expected values are written out from what deployed servers do.
import {
  DOCUMENT_SET_ANSWERS,
  DOCUMENT_SET_TEXTS,
  LIFECYCLE_ANSWERS,
  NO_REINDEX_PROGRESS,
  SWITCHOVER_TYPES,
  USER_GROUP_ANSWERS,
  USER_GROUP_TEXTS,
} from '@kis/rules';
import { describe, expect, it } from 'vitest';
import { byId, type Json, spec, valid } from './helpers.js';

const deref = (node: Json): Json => {
  let n = node;
  while (n?.$ref) {
    n = String(n.$ref)
      .replace(/^#\//, '')
      .split('/')
      .reduce((acc: Json, p) => acc[p], spec);
  }
  return n;
};
const example = (id: string, status: string, name: string): unknown => {
  const response = deref(byId(id).op.responses[status]);
  const value = response.content['application/json'].examples[name];
  if (!value) throw new Error(`${id} ${status} has no example ${name}`);
  return value.value;
};
const schema = (name: string): Json => spec.components.schemas[name];

describe('the verification and scoping operations', () => {
  it.each([
    ['adminSearch', 'post', '/admin/search', 'Search'],
    [
      'getSecondarySearchSettings',
      'get',
      '/search-settings/get-secondary-search-settings',
      'Search',
    ],
    ['getAllSearchSettings', 'get', '/search-settings/get-all-search-settings', 'Search'],
    ['getReindexProgress', 'get', '/search-settings/reindex-progress', 'Search'],
    ['listReindexErrors', 'get', '/search-settings/reindex-errors', 'Search'],
    ['setDocumentHidden', 'post', '/manage/admin/doc-hidden', 'Search'],
    ['setDocumentBoost', 'post', '/manage/admin/doc-boosts', 'Search'],
    ['listBoostedDocuments', 'get', '/manage/admin/doc-boosts', 'Search'],
    ['createDocumentSet', 'post', '/manage/admin/document-set', 'Document sets'],
    ['updateDocumentSet', 'patch', '/manage/admin/document-set', 'Document sets'],
    [
      'deleteDocumentSet',
      'delete',
      '/manage/admin/document-set/{document_set_id}',
      'Document sets',
    ],
    ['listDocumentSets', 'get', '/manage/document-set', 'Document sets'],
    ['listUserGroups', 'get', '/manage/admin/user-group', 'User groups'],
    ['createUserGroup', 'post', '/manage/admin/user-group', 'User groups'],
    ['updateUserGroup', 'patch', '/manage/admin/user-group/{user_group_id}', 'User groups'],
    [
      'addUserGroupUsers',
      'post',
      '/manage/admin/user-group/{user_group_id}/add-users',
      'User groups',
    ],
    ['renameUserGroup', 'patch', '/manage/admin/user-group/rename', 'User groups'],
    [
      'updateUserGroupDocumentSets',
      'patch',
      '/manage/admin/user-group/{user_group_id}/document-sets',
      'User groups',
    ],
    ['deleteUserGroup', 'delete', '/manage/admin/user-group/{user_group_id}', 'User groups'],
    [
      'setUserGroupManager',
      'put',
      '/manage/admin/user-group/{user_group_id}/manager',
      'User groups',
    ],
    [
      'setUserGroupCurator',
      'post',
      '/manage/admin/user-group/{user_group_id}/set-curator',
      'User groups',
    ],
  ])('%s is %s %s, tagged %s and as an extension, on both profiles', (id, method, path, tag) => {
    const found = byId(id);
    expect([found.method, found.path]).toEqual([method, path]);
    expect(found.op.tags).toEqual([tag, 'Deployed-server extensions']);
    expect(found.op['x-kis-profiles']).toBeUndefined();
    expect(Object.keys(found.op.responses).some((s) => s.startsWith('4'))).toBe(true);
  });

  it('every user-group route documents 402 and 404 (editions)', () => {
    for (const { op } of Object.values(spec.paths as Json).flatMap((item: Json) =>
      Object.values(item).map((op) => ({ op: op as Json })),
    )) {
      if (!op.tags?.includes('User groups')) continue;
      expect(Object.keys(op.responses), op.operationId).toEqual(
        expect.arrayContaining(['402', '404']),
      );
    }
  });
});

describe('shapes', () => {
  it('search: query and filters required, filters all optional', () => {
    expect(schema('AdminSearchRequest').required).toEqual(['query', 'filters']);
    expect(schema('SearchFilters').required).toBeUndefined();
    expect(valid('AdminSearchRequest', { query: '', filters: {} })).toBe(true);
    expect(valid('AdminSearchRequest', { query: 'x' })).toBe(false);
    expect(
      valid('AdminSearchRequest', {
        query: 'x',
        filters: {
          source_type: ['file'],
          document_set: ['Handbook'],
          tags: [{ tag_key: 'team', tag_value: 'kis' }],
          updated_at_range: { start: '2026-01-01T00:00:00Z', end: null },
          time_cutoff: null,
        },
      }),
    ).toBe(true);
  });

  it('document sets: update requires users and groups; create does not', () => {
    expect(schema('DocumentSetCreationRequest').required).toEqual([
      'name',
      'description',
      'cc_pair_ids',
      'is_public',
    ]);
    expect(schema('DocumentSetUpdateRequest').required).toEqual(
      expect.arrayContaining(['id', 'users', 'groups']),
    );
    expect(
      valid('DocumentSetCreationRequest', {
        name: 'x',
        description: null,
        cc_pair_ids: [],
        is_public: true,
      }),
    ).toBe(false);
  });

  it("switchover types are the rule book's; no progress is all zeros", () => {
    expect(schema('SearchSettings').properties.switchover_type.enum).toEqual([
      ...SWITCHOVER_TYPES,
      null,
    ]);
    expect(valid('ReindexProgress', NO_REINDEX_PROGRESS)).toBe(true);
  });
});

describe("the examples are the rule book's answers", () => {
  it.each([
    ['listUserGroups', '402', 'businessPlan', LIFECYCLE_ANSWERS.planRequired()],
    [
      'updateUserGroup',
      '404',
      'syncing',
      USER_GROUP_ANSWERS.notFound('main', USER_GROUP_TEXTS.syncing),
    ],
    [
      'updateUserGroup',
      '409',
      'defaultGroup',
      USER_GROUP_ANSWERS.conflict('main', USER_GROUP_TEXTS.defaultConnectors),
    ],
    [
      'deleteUserGroup',
      '409',
      'defaultGroup',
      USER_GROUP_ANSWERS.conflict('main', USER_GROUP_TEXTS.defaultDelete),
    ],
    [
      'renameUserGroup',
      '409',
      'syncing',
      USER_GROUP_ANSWERS.conflict('main', USER_GROUP_TEXTS.renameSyncing),
    ],
    ['createUserGroup', '409', 'duplicate', USER_GROUP_ANSWERS.duplicate('main', 'Sales')],
    [
      'createDocumentSet',
      '400',
      'noConnectors',
      DOCUMENT_SET_ANSWERS.invalid('main', DOCUMENT_SET_TEXTS.noConnectors.create),
    ],
    [
      'createDocumentSet',
      '400',
      'curatorGroups',
      DOCUMENT_SET_ANSWERS.outOfScope('v4.6.1', DOCUMENT_SET_TEXTS.curatorNeedsGroups),
    ],
    [
      'updateDocumentSet',
      '400',
      'syncing',
      DOCUMENT_SET_ANSWERS.invalid('main', DOCUMENT_SET_TEXTS.syncing.update),
    ],
    ['updateDocumentSet', '404', 'unknown', DOCUMENT_SET_ANSWERS.notFound('main', 7)],
    [
      'deleteDocumentSet',
      '400',
      'syncing',
      DOCUMENT_SET_ANSWERS.invalid('v4.6.1', DOCUMENT_SET_TEXTS.syncing.delete),
    ],
    ['deleteDocumentSet', '404', 'unknown', DOCUMENT_SET_ANSWERS.notFound('v4.6.1', 7)],
  ] as const)('%s: the %s example %s', (op, status, name, answer) => {
    expect(String(answer.status)).toBe(status);
    expect(example(op, status, name)).toEqual(answer.body);
  });
});
