// Table tests of the permission tokens and the key models of the rule book. Every expected value
// is written out from what deployed servers do (docs/deployed-servers.md, "Keys and their
// rights"), never computed by the code under test.
import { describe, expect, it } from 'vitest';
import {
  CURATOR_OR_ADMIN_ROLES,
  DEFAULT_GROUP_GRANTS,
  DEFAULT_KEY_ROLE,
  effectivePermissions,
  grants,
  groupKeyPermissions,
  isLimitedKey,
  KEY_ACCOUNT_TYPE,
  roleKeyGroup,
  roleKeyPermissions,
  type UserRole,
} from '../src/index.js';

describe('permission tokens', () => {
  it.each([
    [[], []],
    [['manage:connectors'], ['manage:connectors', 'read:connectors']],
    [['read:connectors'], ['read:connectors']],
    [['write:chat'], ['write:chat']],
    [['admin'], ['admin']],
    [
      ['basic', 'manage:connectors', 'read:connectors'],
      ['basic', 'manage:connectors', 'read:connectors'],
    ],
  ])('%j amounts to %j', (granted, expected) => {
    expect(effectivePermissions(granted)).toEqual(expected);
  });

  it.each([
    [['admin'], 'manage:connectors', true],
    [['admin'], 'manage:service_account_api_keys', true],
    [['admin'], 'basic', true],
    [['manage:connectors'], 'read:connectors', true],
    [['manage:connectors'], 'manage:connectors', true],
    [['read:connectors'], 'manage:connectors', false],
    [['manage:connectors'], 'basic', false],
    [['basic'], 'read:connectors', false],
    [['write:chat'], 'basic', false],
    [[], 'basic', false],
  ])('%j grants %s: %j', (held, needed, expected) => {
    expect(grants(held, needed)).toBe(expected);
  });
});

describe('key models', () => {
  it('release 4.6.1: a key is basic unless told; admin, curator and global_curator pass the role check', () => {
    expect(DEFAULT_KEY_ROLE).toBe('basic');
    expect(CURATOR_OR_ADMIN_ROLES).toEqual(['admin', 'curator', 'global_curator']);
  });

  it.each([
    ['admin', 'Admin', ['admin']],
    ['basic', 'Basic', ['basic']],
    ['limited', undefined, ['write:chat']],
    ['curator', undefined, []],
    ['global_curator', undefined, []],
    ['slack_user', undefined, []],
    ['ext_perm_user', undefined, []],
  ] as const)('release 4.6.1: a %s key joins %s and holds %j', (role, group, permissions) => {
    expect(roleKeyGroup(role as UserRole)).toBe(group);
    expect(roleKeyPermissions(role as UserRole)).toEqual(permissions);
  });

  it('main line: a key is a service account', () => {
    expect(KEY_ACCOUNT_TYPE).toBe('SERVICE_ACCOUNT');
  });

  it('the seeded groups: Admin grants admin, Basic grants basic', () => {
    expect(DEFAULT_GROUP_GRANTS).toEqual({ Admin: ['admin'], Basic: ['basic'] });
  });

  it.each([
    [[], ['write:chat']],
    [[['admin']], ['admin']],
    [[['basic']], ['basic']],
    [
      [['manage:connectors'], ['basic']],
      ['basic', 'manage:connectors'],
    ],
    [[['basic'], ['basic']], ['basic']],
    [[[]], []],
  ])('main line: a key in groups granting %j holds %j', (groupGrants, expected) => {
    expect(groupKeyPermissions(groupGrants)).toEqual(expected);
  });

  it.each([
    [[], true],
    [['write:chat'], false],
    [['basic'], false],
  ])('a key holding %j is limited: %j', (permissions, expected) => {
    expect(isLimitedKey(permissions)).toBe(expected);
  });
});
