// Table tests of who may call each operation on deployed servers (the rule book's
// OPERATION_ACCESS). Expected values are written out from what deployed servers do
// (docs/deployed-servers.md, "Keys and their rights").
import { describe, expect, it } from 'vitest';
import {
  accessFor,
  mainLineDenial,
  permissionFor,
  releaseDenial,
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
  ] as const)('%s with a %s key: %j', (id, role, expected) => {
    expect(releaseDenial(id, role as UserRole)).toEqual(expected);
  });
});
