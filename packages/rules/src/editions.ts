/**
 * Which edition and plan a server runs, and what that takes away (docs/deployed-servers.md,
 * "Editions"): the community edition has no user groups at all (their routes answer FastAPI's 404)
 * and its access ignores the group links pairs keep; the enterprise edition below the Business
 * tier answers 402 `FEATURE_NOT_AVAILABLE` on every `/manage/admin/user-group*` route and on key
 * creation (`license_enforcement_config.py:73,75`, both versions).
 */
import type { Answer, Profile } from './answer.js';
import { LIFECYCLE_ANSWERS } from './lifecycle-answers.js';
import { ANSWERS } from './profiles.js';

/** `enterprise`: the Business tier or above; `enterprise-below-business`: a lower tier. */
export type Edition = 'community' | 'enterprise' | 'enterprise-below-business';

export const EDITIONS: readonly Edition[] = Object.freeze([
  'community',
  'enterprise',
  'enterprise-below-business',
]);

/**
 * The edition each profile plays unless told otherwise. The seed says nothing of groups, so its
 * profile plays deployed servers there: the enterprise edition, as the `deployed` profile does.
 */
export const DEFAULT_EDITION: Readonly<Record<Profile, Edition>> = Object.freeze({
  seed: 'enterprise',
  deployed: 'enterprise',
});

/** The operations only the enterprise edition has (`backend/ee/.../user_group/api.py`). */
export const ENTERPRISE_OPERATIONS: readonly string[] = Object.freeze([
  'listUserGroups',
  'createUserGroup',
  'updateUserGroup',
  'addUserGroupUsers',
  'renameUserGroup',
  'updateUserGroupDocumentSets',
  'deleteUserGroup',
  'setUserGroupManager',
  'setUserGroupCurator',
]);

/** The operations the enterprise edition answers 402 below the Business tier. */
export const BUSINESS_TIER_OPERATIONS: readonly string[] = Object.freeze([
  ...ENTERPRISE_OPERATIONS,
  'createApiKey',
]);

/** The feature a path belongs to when only some editions have it (for the client's errors). */
export function enterpriseFeatureOf(path: string): 'user groups' | undefined {
  return /^\/manage\/admin\/user-group(\/|$)/.test(path) ? 'user groups' : undefined;
}

/**
 * How a server of `edition` refuses `operationId` before anything else: FastAPI's 404 where the
 * route does not exist, 402 below the Business tier; undefined when it serves it.
 */
export function editionRefusal(edition: Edition, operationId: string): Answer | undefined {
  if (edition === 'community' && ENTERPRISE_OPERATIONS.includes(operationId)) {
    return ANSWERS.routeNotFound();
  }
  if (edition === 'enterprise-below-business' && BUSINESS_TIER_OPERATIONS.includes(operationId)) {
    return LIFECYCLE_ANSWERS.planRequired();
  }
  return undefined;
}

/**
 * True when documents' access names user groups: the enterprise edition adds the groups of a
 * pair to its documents' readers; the community edition stores the links and ignores them
 * (`backend/<server>/access/access.py:74-100` against `backend/ee/<server>/access/access.py:44-119`).
 */
export function groupsGrantAccess(edition: Edition): boolean {
  return edition !== 'community';
}

/** True for the 402 of a plan without the feature (`{"error_code": "FEATURE_NOT_AVAILABLE"}`). */
export function isPlanRequired(status: number, body: unknown): boolean {
  return (
    status === 402 &&
    typeof body === 'object' &&
    body !== null &&
    (body as { error_code?: unknown }).error_code === 'FEATURE_NOT_AVAILABLE'
  );
}

/** The plan a 402 names (`required_tier`), if any. */
export function requiredTierOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const tier = (body as { required_tier?: unknown }).required_tier;
  return typeof tier === 'string' ? tier : undefined;
}
