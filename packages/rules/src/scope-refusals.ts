/**
 * Why a server refused a change of a document set or user group, read back from its answer, for
 * clients to say it in one error: the object is still syncing (retry once `is_up_to_date`), the
 * key acts out of the groups it manages or curates, the object is shared and only admins may do
 * that, or the object is one of the seeded groups.
 */
import { DOCUMENT_SET_TEXTS } from './document-sets.js';
import { USER_GROUP_TEXTS } from './user-groups.js';

export type ScopeRefusal = 'syncing' | 'out-of-scope' | 'admins-only' | 'default-group';

function detailOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const text = (body as { detail?: unknown }).detail;
  return typeof text === 'string' ? text : undefined;
}

const SYNCING: readonly string[] = [
  DOCUMENT_SET_TEXTS.syncing.update,
  DOCUMENT_SET_TEXTS.syncing.delete,
  USER_GROUP_TEXTS.syncing,
  USER_GROUP_TEXTS.renameSyncing,
];

/** Prefixes servers share whatever their texts' tails. */
const SYNCING_PREFIXES = [
  'Cannot update document set while it is syncing',
  'Cannot delete document set while it is syncing',
  'Specified user group is currently syncing',
];

const OUT_OF_SCOPE: readonly string[] = [
  DOCUMENT_SET_TEXTS.curatorNeedsGroups,
  DOCUMENT_SET_TEXTS.curatorOutOfScope,
  DOCUMENT_SET_TEXTS.managerScope,
  DOCUMENT_SET_TEXTS.unreachableConnector,
  USER_GROUP_TEXTS.managerSelfRemoval,
  USER_GROUP_TEXTS.managerGrants,
];

const ADMINS_ONLY: readonly string[] = [
  DOCUMENT_SET_TEXTS.sharedDeletion,
  USER_GROUP_TEXTS.defaultMembers,
];

const DEFAULT_GROUP: readonly string[] = [
  USER_GROUP_TEXTS.defaultRename,
  USER_GROUP_TEXTS.defaultDelete,
  USER_GROUP_TEXTS.defaultConnectors,
];

/** The reason of a 400, 403, 404 or 409 about sets and groups; undefined for other answers. */
export function scopeRefusalOf(status: number, body: unknown): ScopeRefusal | undefined {
  if (status !== 400 && status !== 403 && status !== 404 && status !== 409) return undefined;
  const text = detailOf(body);
  if (text === undefined) return undefined;
  if (SYNCING.includes(text) || SYNCING_PREFIXES.some((p) => text.startsWith(p))) return 'syncing';
  if (OUT_OF_SCOPE.includes(text)) return 'out-of-scope';
  if (ADMINS_ONLY.includes(text)) return 'admins-only';
  if (
    DEFAULT_GROUP.includes(text) ||
    text.startsWith('Cannot share with the default system group')
  ) {
    return 'default-group';
  }
  return undefined;
}
