/**
 * Who may call each operation of the spec on deployed servers (docs/deployed-servers.md, "Keys and
 * their rights"): the main line's permission token per route, and release 4.6.1's check. Servers
 * of the seed's kind check the least role of the spec's `x-kis-role` instead.
 */

import type { Answer } from './answer.js';
import {
  CURATOR_OR_ADMIN_ROLES,
  isLimitedKey,
  roleKeyPermissions,
  type UserRole,
} from './key-models.js';
import { LIFECYCLE_ANSWERS } from './lifecycle-answers.js';
import { grants, PERMISSIONS } from './permissions.js';
import type { ServerKind } from './server-kinds.js';

/**
 * A main-line route's check: no key, any valid key (limited ones too), or a permission token;
 * `absent` for a route the line does not have (FastAPI's 404).
 */
export type MainGate =
  | { readonly kind: 'absent' }
  | { readonly kind: 'public' }
  | { readonly kind: 'key' }
  | {
      readonly kind: 'permission';
      readonly permission: string;
      /** Group managers reach the route too, limited to the pairs of the groups they manage. */
      readonly scoped: boolean;
    };

/**
 * A release 4.6.1 route's check: no key, any valid key, the curator-or-admin role check, or a
 * permission token; `absent` for a route the release does not have. Every check but `public`
 * and `key` refuses a limited key first.
 */
export type ReleaseGate =
  | { readonly kind: 'absent' }
  | { readonly kind: 'public' }
  | { readonly kind: 'key' }
  | { readonly kind: 'curator' }
  | { readonly kind: 'permission'; readonly permission: string };

export interface OperationAccess {
  readonly main: MainGate;
  readonly 'v4.6.1': ReleaseGate;
}

const permission = (token: string, scoped: boolean): MainGate =>
  Object.freeze({ kind: 'permission', permission: token, scoped });
const token = (name: string): ReleaseGate =>
  Object.freeze({ kind: 'permission', permission: name });
const CURATOR: ReleaseGate = Object.freeze({ kind: 'curator' });
const ABSENT = Object.freeze({ kind: 'absent' } as const);
const access = (main: MainGate, release: ReleaseGate): OperationAccess =>
  Object.freeze({ main, 'v4.6.1': release });

/** Connector, credential and ingestion calls: a key that can manage connectors. */
const MANAGING = access(permission(PERMISSIONS.manageConnectors, false), CURATOR);
const READ_SCOPED = access(permission(PERMISSIONS.readConnectors, true), CURATOR);
const MANAGE_SCOPED = access(permission(PERMISSIONS.manageConnectors, true), CURATOR);
const BASIC = access(permission(PERMISSIONS.basic, false), token(PERMISSIONS.basic));
const ADMIN = access(permission(PERMISSIONS.admin, false), token(PERMISSIONS.admin));
const SETS_SCOPED = access(permission(PERMISSIONS.manageDocumentSets, true), CURATOR);
const GROUPS_SCOPED = access(permission(PERMISSIONS.manageUserGroups, true), CURATOR);

/** Every operation of the spec, by operationId. */
export const OPERATION_ACCESS: Readonly<Record<string, OperationAccess>> = Object.freeze({
  createConnector: MANAGING,
  listCredentials: MANAGING,
  updateCredentialPrivateKey: MANAGING,
  associateCredentialWithConnector: MANAGING,
  associateCredential: MANAGING,
  dissociateCredential: MANAGING,
  createCredential: MANAGING,
  listConnectors: MANAGING,
  getConnector: MANAGING,
  updateConnector: MANAGING,
  deleteConnector: MANAGING,
  renameCcPair: MANAGING,
  getCredential: MANAGING,
  replaceCredentialJson: MANAGING,
  deleteCredential: MANAGING,
  updateCredential: MANAGING,
  listIngestedDocuments: MANAGING,
  ingestDocument: MANAGING,
  // Scoped on the main line (edit rights on every owning pair are checked after), curator on 4.6.1.
  deleteIngestedDocument: MANAGE_SCOPED,
  listConnectorDocuments: MANAGING,
  uploadUserFiles: BASIC,
  uploadProjectFiles: BASIC,
  getCcPair: READ_SCOPED,
  listIndexAttempts: READ_SCOPED,
  // Global `read:connectors` only: group managers are refused.
  listIndexingErrors: access(permission(PERMISSIONS.readConnectors, false), CURATOR),
  setCcPairStatus: MANAGE_SCOPED,
  runConnectorOnce: MANAGE_SCOPED,
  pruneCcPair: MANAGE_SCOPED,
  getCcPairLastPruned: READ_SCOPED,
  // Scoped reach, but only a global holder (or the creator of a private pair in no group) deletes.
  createDeletionAttempt: MANAGE_SCOPED,
  listConnectorStatus: READ_SCOPED,
  listIndexingStatus: MANAGE_SCOPED,
  getDocumentSizeInfo: BASIC,
  getChunkInfo: BASIC,
  getMe: access(Object.freeze({ kind: 'key' }), Object.freeze({ kind: 'key' })),
  getMyPermissions: BASIC,
  createApiKey: access(
    permission(PERMISSIONS.manageServiceAccountApiKeys, false),
    token(PERMISSIONS.admin),
  ),
  getVersion: access(Object.freeze({ kind: 'public' }), Object.freeze({ kind: 'public' })),
  // `query_backend.py:36`; release 4.6.1: curator or admin (`:37@v4.6.1`).
  adminSearch: access(permission(PERMISSIONS.admin, false), CURATOR),
  getSecondarySearchSettings: BASIC,
  getAllSearchSettings: BASIC,
  getReindexProgress: ADMIN,
  listReindexErrors: ADMIN,
  // Curator or admin on release 4.6.1 (`manage/administrative.py`); the notes name no main-line
  // token, so kis models the strictest one, `admin`.
  setDocumentHidden: access(permission(PERMISSIONS.admin, false), CURATOR),
  setDocumentBoost: access(permission(PERMISSIONS.admin, false), CURATOR),
  listBoostedDocuments: access(permission(PERMISSIONS.admin, false), CURATOR),
  createDocumentSet: SETS_SCOPED,
  updateDocumentSet: SETS_SCOPED,
  deleteDocumentSet: SETS_SCOPED,
  listDocumentSets: BASIC,
  listUserGroups: access(permission(PERMISSIONS.readUserGroups, true), CURATOR),
  // Create and delete: global `manage:user_groups` (admin on 4.6.1); duplicate names 409 (400).
  createUserGroup: access(
    permission(PERMISSIONS.manageUserGroups, false),
    token(PERMISSIONS.admin),
  ),
  updateUserGroup: GROUPS_SCOPED,
  addUserGroupUsers: GROUPS_SCOPED,
  // Scoped on the main line; admin only on release 4.6.1.
  renameUserGroup: access(permission(PERMISSIONS.manageUserGroups, true), token(PERMISSIONS.admin)),
  updateUserGroupDocumentSets: access(permission(PERMISSIONS.manageUserGroups, true), ABSENT),
  deleteUserGroup: access(
    permission(PERMISSIONS.manageUserGroups, false),
    token(PERMISSIONS.admin),
  ),
  // The main line's `manager` call replaced release 4.6.1's `set-curator`.
  setUserGroupManager: access(permission(PERMISSIONS.manageUserGroups, true), ABSENT),
  setUserGroupCurator: access(ABSENT, CURATOR),
});

/**
 * True when a server of `kind` has the route of `operationId` (the seed's kind has the main
 * line's routes); an operation the rule book does not know counts as served.
 */
export function servedOn(kind: ServerKind, operationId: string): boolean {
  const rule = accessFor(operationId);
  if (rule === undefined) return true;
  return (kind === 'v4.6.1' ? rule['v4.6.1'] : rule.main).kind !== 'absent';
}

/** How deployed servers check `operationId`; undefined for an operation the spec does not have. */
export function accessFor(operationId: string): OperationAccess | undefined {
  return Object.hasOwn(OPERATION_ACCESS, operationId) ? OPERATION_ACCESS[operationId] : undefined;
}

/** The main line's permission token for `operationId` and whether it is scoped; undefined when the route checks none. */
export function permissionFor(
  operationId: string,
): { permission: string; scoped: boolean } | undefined {
  const gate = accessFor(operationId)?.main;
  return gate?.kind === 'permission'
    ? { permission: gate.permission, scoped: gate.scoped }
    : undefined;
}

function unknownOperation(operationId: string): never {
  throw new Error(`the rule book has no access rule for operation ${operationId}`);
}

/**
 * The 403 a main-line server answers a key holding `permissions` (its groups' grants, or its
 * effective permissions) on `operationId`; undefined when the key passes. A scoped route also
 * admits a key that manages a group (`managesGroups`), which the route then limits to its groups.
 */
export function mainLineDenial(
  operationId: string,
  permissions: readonly string[],
  managesGroups = false,
): Answer | undefined {
  const gate = accessFor(operationId)?.main ?? unknownOperation(operationId);
  if (gate.kind !== 'permission') return undefined;
  if (isLimitedKey(permissions)) return LIFECYCLE_ANSWERS.limitedKey();
  if (grants(permissions, gate.permission)) return undefined;
  return gate.scoped && managesGroups ? undefined : LIFECYCLE_ANSWERS.permissionDenied();
}

/**
 * The 403 a release 4.6.1 server answers a key of `role` on `operationId`; undefined when it
 * passes. `permissions` are the key's groups' grants (default: those of the group its role
 * joins).
 */
export function releaseDenial(
  operationId: string,
  role: UserRole,
  permissions: readonly string[] = roleKeyPermissions(role),
): Answer | undefined {
  const gate = accessFor(operationId)?.['v4.6.1'] ?? unknownOperation(operationId);
  if (gate.kind === 'public' || gate.kind === 'key' || gate.kind === 'absent') return undefined;
  if (isLimitedKey(permissions)) return LIFECYCLE_ANSWERS.limitedKey();
  if (gate.kind === 'curator') {
    return CURATOR_OR_ADMIN_ROLES.includes(role)
      ? undefined
      : LIFECYCLE_ANSWERS.notCuratorOrAdmin();
  }
  return grants(permissions, gate.permission) ? undefined : LIFECYCLE_ANSWERS.permissionDenied();
}
