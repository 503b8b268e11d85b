/**
 * User groups, an enterprise feature (docs/deployed-servers.md, "User groups";
 * `backend/ee/<server>/server/user_group/api.py`, `ee/.../db/user_group.py`): who may list and
 * change which, their sync, the main line's guards on its seeded groups, and each kind's answers.
 * A `ValueError` of the store is 404 on the update, add-users and delete calls (the main line's
 * `NOT_FOUND`, release 4.6.1's `{detail}`), "syncing" included. Texts marked "(kis wording)" are
 * not given by the notes.
 */
import type { Answer } from './answer.js';
import { type Actor, mayEditPair, type ScopedPair } from './scoped-actors.js';
import type { ServerKind } from './server-kinds.js';

export const USER_GROUP_TEXTS = Object.freeze({
  /** (kis wording after the notes' "Specified user group is currently syncing...") */
  syncing:
    'Specified user group is currently syncing. Please wait for it to finish syncing, and then try again.',
  /** (kis wording) Rename while the group syncs (409). */
  renameSyncing: 'Cannot rename a user group while it is syncing.',
  defaultRename: 'Cannot rename a default system group.',
  defaultDelete: 'Cannot delete a default system group.',
  defaultConnectors: 'Cannot add connectors to a default system group.',
  /** (kis wording) Members of a seeded group: full admins only (403). */
  defaultMembers: 'Only administrators can change the members of a default system group.',
  managerScope: 'Group managers can only act on private resources within the groups they manage.',
  /** (kis wording) `user_group.py:826-832`. */
  managerSelfRemoval: 'Group managers cannot remove themselves from a group they manage.',
  /** (kis wording) `user_group.py:624-652`. */
  managerGrants: 'Group managers cannot add members to a group granting permissions they lack.',
  curatorOutOfScope: "Curators cannot control groups they don't curate",
  /** (kis wording) The document-set call with an id in both lists. */
  addedAndRemoved: 'A document set cannot be both added and removed',
});

/** (kis wording) An unknown or unreachable group id. */
export function groupNotFoundText(id: number): string {
  return `User group with id '${id}' not found`;
}

export function usersNotFoundText(ids: readonly string[]): string {
  return `User(s) not found: ${ids.join(', ')}`;
}

/** (kis wording) Pair ids that do not exist. */
export function pairsNotFoundText(ids: readonly number[]): string {
  return `Connector credential pair(s) not found: ${ids.join(', ')}`;
}

/** (kis wording) A name another group has. */
export function duplicateGroupNameText(name: string): string {
  return `User group with name '${name}' already exists`;
}

const detail = (status: number, text: string): Answer => ({ status, body: { detail: text } });
const coded = (status: number, code: string, text: string): Answer => ({
  status,
  body: { error_code: code, detail: text },
});
const byKind = (kind: ServerKind, status: number, code: string, text: string): Answer =>
  kind === 'main' ? coded(status, code, text) : detail(status, text);

export const USER_GROUP_ANSWERS = {
  /** An unknown group, unknown users, or a group that is syncing: 404 (a `ValueError`). */
  notFound(kind: ServerKind, text: string): Answer {
    return byKind(kind, 404, 'NOT_FOUND', text);
  },
  /** A duplicate name: 409 `DUPLICATE_RESOURCE` on the main line, 400 before. */
  duplicate(kind: ServerKind, name: string): Answer {
    return kind === 'main'
      ? coded(409, 'DUPLICATE_RESOURCE', duplicateGroupNameText(name))
      : detail(400, duplicateGroupNameText(name));
  },
  /** Rename while syncing, or a guard of the main line's seeded groups: 409. */
  conflict(kind: ServerKind, text: string): Answer {
    return byKind(kind, 409, 'CONFLICT', text);
  },
  /** A scoped actor out of its scope: 403. */
  outOfScope(kind: ServerKind, text: string): Answer {
    return byKind(kind, 403, 'INSUFFICIENT_PERMISSIONS', text);
  },
  /** A `ValueError` outside the calls that turn it into 404 (create): 400 `{message}`. */
  valueError(text: string): Answer {
    return { status: 400, body: { message: text } };
  },
  /** The document-set call's invalid input: 400 `INVALID_INPUT`. */
  invalidInput(kind: ServerKind, text: string): Answer {
    return byKind(kind, 400, 'INVALID_INPUT', text);
  },
  /** Delete, the document-set call and the manager calls: `null`. */
  done(): Answer {
    return { status: 200, body: null };
  },
} as const;

/** A group as the rules read it. */
export interface GroupFacts {
  readonly id: number;
  /** One of the groups every server seeds (`Admin`, `Basic`). */
  readonly is_default: boolean;
}

/**
 * True when the group is listed to the actor: global readers see every group (the seeded ones
 * only with `include_default`), managers and curators those they manage (`api.py:76-126`,
 * `:51-76@v4.6.1`).
 */
export function groupListed(actor: Actor, group: GroupFacts, includeDefault: boolean): boolean {
  if (group.is_default && !includeDefault) return false;
  return actor.global || actor.managedGroupIds.includes(group.id);
}

/**
 * Why the actor may not change the group's members, pairs, name, document sets or managers;
 * undefined when it may (main line: managers of the group; release 4.6.1: its curators, 403
 * "Curators cannot control groups they don't curate", `user_group.py:635-673@v4.6.1`).
 */
export function groupWriteRefusal(actor: Actor, group: GroupFacts): Answer | undefined {
  if (actor.global || actor.managedGroupIds.includes(group.id)) return undefined;
  const text =
    actor.kind === 'v4.6.1' ? USER_GROUP_TEXTS.curatorOutOfScope : USER_GROUP_TEXTS.managerScope;
  return USER_GROUP_ANSWERS.outOfScope(actor.kind, text);
}

/** What a full replace (or an add) of a group's members and pairs asks for. */
export interface GroupChange {
  readonly user_ids: readonly string[];
  /** Undefined for add-users, which leaves the pairs. */
  readonly cc_pairs?: readonly ScopedPair[];
  /** The permission tokens the group grants its members. */
  readonly grants: readonly string[];
}

/**
 * Why the main line refuses a member or pair change by this actor on this group; undefined when
 * it accepts. The seeded groups take no pairs (409) and members only from full admins (403);
 * managers attach only pairs in their reach, may not drop themselves and may not hand out
 * permissions they lack (`user_group.py:624-744,826-832`). Other kinds: none of these checks.
 */
export function groupChangeRefusal(
  actor: Actor & { readonly isAdmin: boolean; readonly permissions: readonly string[] },
  group: GroupFacts,
  change: GroupChange,
): Answer | undefined {
  if (actor.kind !== 'main') return undefined;
  if (group.is_default) {
    if ((change.cc_pairs?.length ?? 0) > 0) {
      return USER_GROUP_ANSWERS.conflict('main', USER_GROUP_TEXTS.defaultConnectors);
    }
    if (!actor.isAdmin) {
      return USER_GROUP_ANSWERS.outOfScope('main', USER_GROUP_TEXTS.defaultMembers);
    }
  }
  if (actor.global) return undefined;
  if (change.cc_pairs !== undefined && !change.cc_pairs.every((p) => mayEditPair(actor, p))) {
    return USER_GROUP_ANSWERS.outOfScope('main', USER_GROUP_TEXTS.managerScope);
  }
  if (change.cc_pairs !== undefined && !change.user_ids.includes(actor.userId)) {
    return USER_GROUP_ANSWERS.outOfScope('main', USER_GROUP_TEXTS.managerSelfRemoval);
  }
  if (!actor.isAdmin && !change.grants.every((g) => actor.permissions.includes(g))) {
    return USER_GROUP_ANSWERS.outOfScope('main', USER_GROUP_TEXTS.managerGrants);
  }
  return undefined;
}

/**
 * When a group's `is_up_to_date` turns false: on creation, on a change of its pairs (members
 * alone do not: membership is read at query time), on rename (documents carry the group's name)
 * and on deletion (`ee/.../db/user_group.py:510-543,860-872,936-960,984-1045`).
 */
export const GROUP_SYNC_TRIGGERS = Object.freeze(['create', 'pairs', 'rename', 'delete'] as const);
