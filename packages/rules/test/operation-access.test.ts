// Table tests of who may call each operation on deployed servers (the rule book's
// OPERATION_ACCESS). Expected values are written out from what deployed servers do
// (docs/deployed-servers.md, "Keys and their rights").
import { describe, expect, it } from 'vitest';
import {
  accessFor,
  keyAccountEmail,
  mainLineDenial,
  permissionFor,
  releaseDenial,
  releaseKeyPermissions,
  roleKeyPermissions,
  servedOn,
  USER_ROLES,
  type UserRole,
} from '../src/index.js';

const DENIED = {
  status: 403,
  body: {
    error_code: 'INSUFFICIENT_PERMISSIONS',
    detail: 'You do not have the required permissions for this action.',
  },
};
const LIMITED = { status: 403, body: { detail: 'Access denied. User has limited permissions.' } };
const NOT_CURATOR = {
  status: 403,
  body: { detail: 'Access denied. User is not a curator or admin.' },
};

describe('the main line: a permission token per route', () => {
  it.each([
    ['getCcPair', 'read:connectors', true],
    ['listIndexAttempts', 'read:connectors', true],
    ['listIndexingErrors', 'read:connectors', false],
    ['setCcPairStatus', 'manage:connectors', true],
    ['runConnectorOnce', 'manage:connectors', true],
    ['pruneCcPair', 'manage:connectors', true],
    ['getCcPairLastPruned', 'read:connectors', true],
    ['createDeletionAttempt', 'manage:connectors', true],
    ['listConnectorStatus', 'read:connectors', true],
    ['listIndexingStatus', 'manage:connectors', true],
    ['getDocumentSizeInfo', 'basic', false],
    ['getChunkInfo', 'basic', false],
    ['getMyPermissions', 'basic', false],
    ['createApiKey', 'manage:service_account_api_keys', false],
    ['createConnector', 'manage:connectors', false],
    ['ingestDocument', 'manage:connectors', false],
    ['listCredentials', 'manage:connectors', false],
    ['uploadProjectFiles', 'basic', false],
    ['deleteIngestedDocument', 'manage:connectors', true],
    ['adminSearch', 'admin', false],
    ['getSecondarySearchSettings', 'basic', false],
    ['getAllSearchSettings', 'basic', false],
    ['getReindexProgress', 'admin', false],
    ['listReindexErrors', 'admin', false],
    ['setDocumentHidden', 'admin', false],
    ['setDocumentBoost', 'admin', false],
    ['listBoostedDocuments', 'admin', false],
    ['createDocumentSet', 'manage:document_sets', true],
    ['updateDocumentSet', 'manage:document_sets', true],
    ['deleteDocumentSet', 'manage:document_sets', true],
    ['listDocumentSets', 'basic', false],
    ['listUserGroups', 'read:user_groups', true],
    ['createUserGroup', 'manage:user_groups', false],
    ['updateUserGroup', 'manage:user_groups', true],
    ['addUserGroupUsers', 'manage:user_groups', true],
    ['renameUserGroup', 'manage:user_groups', true],
    ['updateUserGroupDocumentSets', 'manage:user_groups', true],
    ['deleteUserGroup', 'manage:user_groups', false],
    ['setUserGroupManager', 'manage:user_groups', true],
  ])('%s needs %s (scoped: %j)', (id, permission, scoped) => {
    expect(permissionFor(id)).toEqual({ permission, scoped });
  });

  it('/me needs any valid key, the version route none; an unknown operation has no rule', () => {
    expect(permissionFor('getMe')).toBeUndefined();
    expect(accessFor('getMe')).toEqual({ main: { kind: 'key' }, 'v4.6.1': { kind: 'key' } });
    expect(accessFor('getVersion')?.main).toEqual({ kind: 'public' });
    expect(accessFor('frobnicate')).toBeUndefined();
    expect(permissionFor('frobnicate')).toBeUndefined();
  });

  it.each([
    ['getCcPair', ['admin'], undefined],
    ['getCcPair', ['read:connectors'], undefined],
    ['getCcPair', ['manage:connectors'], undefined],
    ['getCcPair', ['basic'], DENIED],
    ['getCcPair', ['write:chat'], DENIED],
    ['getCcPair', [], LIMITED],
    ['runConnectorOnce', ['read:connectors'], DENIED],
    ['runConnectorOnce', ['manage:connectors'], undefined],
    ['getDocumentSizeInfo', ['basic'], undefined],
    ['getDocumentSizeInfo', ['manage:connectors'], DENIED],
    ['getDocumentSizeInfo', ['write:chat'], DENIED],
    ['createApiKey', ['manage:connectors', 'basic'], DENIED],
    ['createApiKey', ['manage:service_account_api_keys'], undefined],
    ['getMe', [], undefined],
    ['getMe', ['write:chat'], undefined],
    ['getVersion', [], undefined],
  ])('%s with a key holding %j: %j', (id, permissions, expected) => {
    expect(mainLineDenial(id, permissions)).toEqual(expected);
  });

  it('scoped routes admit a key that manages a group; global ones do not', () => {
    expect(mainLineDenial('updateUserGroup', ['basic'], true)).toBeUndefined();
    expect(mainLineDenial('updateUserGroup', ['basic'], false)).toEqual(DENIED);
    expect(mainLineDenial('createUserGroup', ['basic'], true)).toEqual(DENIED);
    expect(mainLineDenial('createDocumentSet', ['basic'], true)).toBeUndefined();
    expect(mainLineDenial('listUserGroups', ['manage:user_groups'])).toBeUndefined();
    expect(mainLineDenial('listUserGroups', [], true)).toEqual(LIMITED);
  });

  it('which kind of server has which route: manager on the main line, set-curator on 4.6.1', () => {
    expect(servedOn('main', 'setUserGroupManager')).toBe(true);
    expect(servedOn('seed', 'setUserGroupManager')).toBe(true);
    expect(servedOn('v4.6.1', 'setUserGroupManager')).toBe(false);
    expect(servedOn('main', 'setUserGroupCurator')).toBe(false);
    expect(servedOn('seed', 'setUserGroupCurator')).toBe(false);
    expect(servedOn('v4.6.1', 'setUserGroupCurator')).toBe(true);
    expect(servedOn('v4.6.1', 'updateUserGroupDocumentSets')).toBe(false);
    expect(servedOn('v4.6.1', 'getReindexProgress')).toBe(true);
    expect(servedOn('v4.6.1', 'frobnicate')).toBe(true);
  });

  it('refuses to guess for an operation it does not know', () => {
    expect(() => mainLineDenial('frobnicate', ['admin'])).toThrow(
      'the rule book has no access rule for operation frobnicate',
    );
  });
});

describe('release 4.6.1: the role check, and a few permission checks', () => {
  it.each([
    ['getCcPair', 'admin', undefined],
    ['getCcPair', 'basic', NOT_CURATOR],
    ['getCcPair', 'limited', NOT_CURATOR],
    ['getCcPair', 'curator', LIMITED],
    ['getCcPair', 'global_curator', LIMITED],
    ['getCcPair', 'slack_user', LIMITED],
    ['createDeletionAttempt', 'basic', NOT_CURATOR],
    ['ingestDocument', 'admin', undefined],
    ['getDocumentSizeInfo', 'admin', undefined],
    ['getDocumentSizeInfo', 'basic', undefined],
    ['getDocumentSizeInfo', 'limited', DENIED],
    ['getDocumentSizeInfo', 'curator', LIMITED],
    ['getMyPermissions', 'basic', undefined],
    ['createApiKey', 'admin', undefined],
    ['createApiKey', 'basic', DENIED],
    ['getMe', 'curator', undefined],
    ['getMe', 'limited', undefined],
    ['getVersion', 'ext_perm_user', undefined],
    ['adminSearch', 'admin', undefined],
    ['adminSearch', 'basic', NOT_CURATOR],
    ['createDocumentSet', 'basic', NOT_CURATOR],
    ['listDocumentSets', 'basic', undefined],
    ['getReindexProgress', 'basic', DENIED],
    ['createUserGroup', 'admin', undefined],
    ['renameUserGroup', 'basic', DENIED],
  ] as const)('%s with a %s key: %j', (id, role, expected) => {
    expect(releaseDenial(id, role as UserRole)).toEqual(expected);
  });

  it("a key's groups decide: a curator key added to Basic passes the curator check", () => {
    expect(releaseDenial('createDocumentSet', 'curator', ['basic'])).toBeUndefined();
    expect(releaseDenial('createDocumentSet', 'curator', [])).toEqual(LIMITED);
    expect(releaseDenial('createUserGroup', 'curator', ['basic'])).toEqual(DENIED);
  });

  it("its permissions are its groups' grants; with its creation group, those of its role", () => {
    const join = (role: UserRole) =>
      role === 'admin' ? [['admin']] : role === 'basic' ? [['basic']] : [];
    for (const role of USER_ROLES) {
      expect(releaseKeyPermissions(role, join(role))).toEqual([...roleKeyPermissions(role)]);
    }
    expect(releaseKeyPermissions('curator', [['basic'], ['manage:connectors']])).toEqual([
      'basic',
      'manage:connectors',
    ]);
  });
});

describe("a key's account", () => {
  it('is API_KEY__<name or Unnamed>@<uuid><domain>', () => {
    expect(keyAccountEmail('ci', 'u-1', '.apikey.example')).toBe('API_KEY__ci@u-1.apikey.example');
    expect(keyAccountEmail(null, 'u-1', '.d')).toBe('API_KEY__Unnamed@u-1.d');
  });
});
