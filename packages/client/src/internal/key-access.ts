/**
 * What a key may do with each group of the client's calls, from what `GET /me` says about it and
 * the rule book's access rules (docs/deployed-servers.md, "Keys and their rights"): release 4.6.1
 * checks a key's role (`releaseDenial`), the main line the permissions its groups grant
 * (`mainLineDenial`, `permissionFor`).
 */
import {
  IMPLIED_PERMISSIONS,
  KEY_ACCOUNT_TYPE,
  mainLineDenial,
  permissionFor,
  releaseDenial,
  UNGROUPED_KEY_PERMISSIONS,
  USER_ROLES,
  type UserRole,
} from '@kis/rules';
import type { AccessGroup, DoctorAccess, DoctorKey } from '../doctor.js';
import type { UserInfo } from '../types.js';

/** The operations behind each group of the client's calls (`kis.connectors` with `kis.pairs`, …). */
export const ACCESS_GROUPS: Readonly<Record<AccessGroup, readonly string[]>> = Object.freeze({
  connectors: Object.freeze([
    'createConnector',
    'associateCredential',
    'dissociateCredential',
    'listConnectors',
    'getConnector',
    'updateConnector',
    'deleteConnector',
    'runConnectorOnce',
    'listConnectorStatus',
    'listIndexingStatus',
    'getCcPair',
    'renameCcPair',
    'setCcPairStatus',
    'listIndexAttempts',
    'listIndexingErrors',
    'pruneCcPair',
    'getCcPairLastPruned',
    'createDeletionAttempt',
  ]),
  credentials: Object.freeze([
    'listCredentials',
    'createCredential',
    'getCredential',
    'updateCredential',
    'replaceCredentialJson',
    'deleteCredential',
    'updateCredentialPrivateKey',
  ]),
  ingestion: Object.freeze([
    'ingestDocument',
    'listIngestedDocuments',
    'deleteIngestedDocument',
    'listConnectorDocuments',
    'uploadProjectFiles',
  ]),
  documents: Object.freeze(['getDocumentSizeInfo', 'getChunkInfo']),
});

export const ACCESS_GROUP_NAMES = Object.keys(ACCESS_GROUPS) as AccessGroup[];

export const isUserRole = (value: unknown): value is UserRole =>
  typeof value === 'string' && (USER_ROLES as readonly string[]).includes(value);

/**
 * The key model `GET /me`'s answer shows: a role (release 4.6.1; `seedChecks` when the server
 * refused the key the seed's way) or a service account (main line).
 */
export function keyOf(me: UserInfo, seedChecks: boolean): DoctorKey {
  if ('role' in me && typeof me.role === 'string') {
    return { model: 'role', role: me.role, checks: seedChecks ? 'seed' : 'v4.6.1' };
  }
  if ('effective_permissions' in me && Array.isArray(me.effective_permissions)) {
    return {
      model: 'groups',
      accountType: typeof me.account_type === 'string' ? me.account_type : KEY_ACCOUNT_TYPE,
      permissions: [...me.effective_permissions].sort(),
      groupManager: me.is_group_manager === true,
    };
  }
  return { model: 'unknown', reason: 'GET /me answered neither a role nor permissions' };
}

/** True for a main-line key that holds exactly what a key in no group holds. */
export function inNoGroup(permissions: readonly string[]): boolean {
  return (
    permissions.length === UNGROUPED_KEY_PERMISSIONS.length &&
    UNGROUPED_KEY_PERMISSIONS.every((p) => permissions.includes(p))
  );
}

/** What the main line's check of `operationId` asks for, in words (`manage:connectors`). */
function mainNeed(operationId: string): string {
  return permissionFor(operationId)?.permission ?? 'a valid key';
}

/** The release 4.6.1 roles whose keys pass every one of `operations`. */
export function rolesPassing(operations: readonly string[]): UserRole[] {
  return USER_ROLES.filter((role) => operations.every((op) => !releaseDenial(op, role)));
}

/** Whether the key may call each of the group's operations, by its model; undefined when unknown. */
export function accessOf(key: DoctorKey, group: AccessGroup): DoctorAccess | undefined {
  const operations = ACCESS_GROUPS[group];
  let refused: DoctorAccess['refused'];
  if (key.model === 'groups') {
    refused = operations
      .filter((op) => mainLineDenial(op, key.permissions) !== undefined)
      .map((op) => ({ operationId: op, needs: mainNeed(op) }));
  } else if (key.model === 'role' && key.checks === 'v4.6.1' && isUserRole(key.role)) {
    const passing = rolesPassing(operations).join(' or ');
    const role = key.role;
    refused = operations
      .filter((op) => releaseDenial(op, role) !== undefined)
      .map((op) => ({ operationId: op, needs: `a key of role ${passing}` }));
  } else {
    return undefined;
  }
  return { group, allowed: refused.length === 0, refused };
}

/**
 * The fewest permissions that cover `needed`: a token another one implies is left out
 * (`manage:connectors` covers `read:connectors`).
 */
export function coveringPermissions(needed: Iterable<string>): string[] {
  const all = [...new Set(needed)];
  return all
    .filter((token) => !all.some((other) => IMPLIED_PERMISSIONS[other]?.includes(token)))
    .sort();
}

/** The permissions the group's calls check on the main line, covering ones only. */
export function groupPermissions(group: AccessGroup): string[] {
  return coveringPermissions(ACCESS_GROUPS[group].map(mainNeed));
}
