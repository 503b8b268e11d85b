/**
 * The doctor's table of the client's groups of calls and what a key may do with each, against
 * the rule book's access rules with written-out values.
 */
import { OPERATION_ACCESS } from '@kis/rules';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_GROUPS,
  accessOf,
  coveringPermissions,
  groupPermissions,
  inNoGroup,
  rolesPassing,
} from '../src/internal/key-access.js';

const groupsKey = (permissions: string[]) =>
  ({ model: 'groups', accountType: 'SERVICE_ACCOUNT', permissions, groupManager: false }) as const;

describe('the groups of calls', () => {
  it('name operations the rule book has', () => {
    for (const operations of Object.values(ACCESS_GROUPS)) {
      for (const op of operations) expect(Object.keys(OPERATION_ACCESS)).toContain(op);
    }
  });

  it('need, on the main line, the covering permissions', () => {
    expect(groupPermissions('connectors')).toEqual(['manage:connectors']);
    expect(groupPermissions('credentials')).toEqual(['manage:connectors']);
    expect(groupPermissions('ingestion')).toEqual(['basic', 'manage:connectors']);
    expect(groupPermissions('documents')).toEqual(['basic']);
  });

  it('pass, on release 4.6.1, these roles only', () => {
    expect(rolesPassing(ACCESS_GROUPS.connectors)).toEqual(['admin']);
    expect(rolesPassing(ACCESS_GROUPS.documents)).toEqual(['basic', 'admin']);
  });
});

describe('coveringPermissions', () => {
  it('leaves out what another token implies', () => {
    expect(coveringPermissions(['read:connectors', 'manage:connectors', 'basic'])).toEqual([
      'basic',
      'manage:connectors',
    ]);
    expect(coveringPermissions(['read:connectors'])).toEqual(['read:connectors']);
  });
});

describe('accessOf', () => {
  it('a main-line key with read:connectors reads pairs but may not change them', () => {
    const access = accessOf(groupsKey(['read:connectors']), 'connectors');
    expect(access?.allowed).toBe(false);
    const refused = access?.refused.map((r) => r.operationId) ?? [];
    expect(refused).toContain('setCcPairStatus');
    expect(refused).not.toContain('getCcPair');
    expect(refused).not.toContain('listIndexingErrors');
    expect(new Set(access?.refused.map((r) => r.needs))).toEqual(new Set(['manage:connectors']));
  });

  it('an admin key passes everything', () => {
    for (const group of ['connectors', 'credentials', 'ingestion', 'documents'] as const) {
      expect(accessOf(groupsKey(['admin']), group)).toEqual({ group, allowed: true, refused: [] });
    }
  });

  it('a role key is judged by release 4.6.1 rules, a seed-checked one not at all', () => {
    const basic = accessOf({ model: 'role', role: 'basic', checks: 'v4.6.1' }, 'connectors');
    expect(basic?.refused[0]).toEqual({
      operationId: 'createConnector',
      needs: 'a key of role admin',
    });
    expect(
      accessOf({ model: 'role', role: 'basic', checks: 'seed' }, 'connectors'),
    ).toBeUndefined();
    expect(accessOf({ model: 'unknown', reason: 'no /me' }, 'documents')).toBeUndefined();
  });

  it('inNoGroup: write:chat alone', () => {
    expect(inNoGroup(['write:chat'])).toBe(true);
    expect(inNoGroup(['basic', 'write:chat'])).toBe(false);
  });
});
