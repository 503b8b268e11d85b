// Table tests of editions and plans: which operations each edition refuses and how, and whether
// groups grant access. Expected values written out from docs/deployed-servers.md, "Editions".
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EDITION,
  type Edition,
  editionRefusal,
  enterpriseFeatureOf,
  groupsGrantAccess,
  isPlanRequired,
  requiredTierOf,
} from '../src/index.js';

const NOT_FOUND = { status: 404, body: { detail: 'Not Found' } };
const PLAN = {
  status: 402,
  body: {
    error_code: 'FEATURE_NOT_AVAILABLE',
    detail: 'This feature requires the Business plan.',
    required_tier: 'business',
  },
};

describe('editions', () => {
  it.each<[Edition, string, unknown]>([
    ['community', 'listUserGroups', NOT_FOUND],
    ['community', 'createUserGroup', NOT_FOUND],
    ['community', 'setUserGroupCurator', NOT_FOUND],
    ['community', 'createApiKey', undefined],
    ['community', 'createDocumentSet', undefined],
    ['enterprise-below-business', 'updateUserGroup', PLAN],
    ['enterprise-below-business', 'createApiKey', PLAN],
    ['enterprise-below-business', 'listDocumentSets', undefined],
    ['enterprise', 'listUserGroups', undefined],
    ['enterprise', 'createApiKey', undefined],
  ])('%s answers %s with %j', (edition, operationId, answer) => {
    expect(editionRefusal(edition, operationId)).toEqual(answer);
  });

  it('both profiles play the enterprise edition unless told otherwise', () => {
    expect(DEFAULT_EDITION).toEqual({ seed: 'enterprise', deployed: 'enterprise' });
  });

  it('only the enterprise editions give access through groups', () => {
    expect(groupsGrantAccess('community')).toBe(false);
    expect(groupsGrantAccess('enterprise')).toBe(true);
    expect(groupsGrantAccess('enterprise-below-business')).toBe(true);
  });

  it('names the user-group paths, reads the 402 and its tier', () => {
    expect(enterpriseFeatureOf('/manage/admin/user-group')).toBe('user groups');
    expect(enterpriseFeatureOf('/manage/admin/user-group/3/add-users')).toBe('user groups');
    expect(enterpriseFeatureOf('/manage/admin/user-groups')).toBeUndefined();
    expect(enterpriseFeatureOf('/manage/document-set')).toBeUndefined();
    expect(isPlanRequired(402, PLAN.body)).toBe(true);
    expect(isPlanRequired(402, { detail: 'x' })).toBe(false);
    expect(isPlanRequired(403, PLAN.body)).toBe(false);
    expect(requiredTierOf(PLAN.body)).toBe('business');
    expect(requiredTierOf({})).toBeUndefined();
  });
});
