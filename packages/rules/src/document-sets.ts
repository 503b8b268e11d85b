/**
 * Document sets (docs/deployed-servers.md, "Document sets"; `server/features/document_set/api.py`,
 * `db/document_set.py`): their validation, who may create, change, delete and list which, their
 * sync, and each kind of server's answers. The main line answers `{error_code, detail}`
 * (404 `DOCUMENT_SET_NOT_FOUND`, 400 `VALIDATION_ERROR`, 403 `INSUFFICIENT_PERMISSIONS`); release
 * 4.6.1 and the seed's kind `{detail}`. Texts marked "(kis wording)" are not given by the notes.
 */
import type { Answer } from './answer.js';
import { type Actor, managesAll, mayEditPair, type ScopedPair } from './scoped-actors.js';
import type { ServerKind } from './server-kinds.js';

export const DOCUMENT_SET_TEXTS = Object.freeze({
  noConnectors: Object.freeze({
    create: 'Cannot create a document set with no connectors',
    update: 'Cannot update a document set with no connectors',
  }),
  /** While `is_up_to_date` is false (`document_set.py:452-455,562-565`). */
  syncing: Object.freeze({
    update:
      'Cannot update document set while it is syncing. Please wait for it to finish syncing, and then try again.',
    delete:
      'Cannot delete document set while it is syncing. Please wait for it to finish syncing, and then try again.',
  }),
  curatorNeedsGroups: 'Curators must specify 1+ groups',
  curatorOutOfScope: "Curators cannot control groups they don't curate",
  managerScope: 'Group managers can only act on private resources within the groups they manage.',
  unreachableConnector: 'Document set references a connector you do not have access to.',
  sharedDeletion: 'Deleting a shared document set is restricted to administrators.',
  /** (kis wording) The community edition shares sets with nobody in particular. */
  privateNeedsEnterprise:
    'Private document sets shared with users or groups need the enterprise edition',
  /** (kis wording) No federated connector exists on the emulator. */
  unknownFederatedConnector: 'Federated connector not found',
});

export function setNotFoundText(id: number): string {
  return `Document set ${id} does not exist`;
}

/** `document_set.py:284-322`: a private pair of a non-public set must be linked to every group. */
export function pairNotOwnedByGroupsText(pairId: number): string {
  return `Connector Credential Pair with ID: '${pairId}' is not owned by the specified groups`;
}

/** (kis wording) A name another set has: the database's unique constraint. */
export function duplicateSetNameText(name: string): string {
  return `A document set named '${name}' already exists`;
}

/** (kis wording) A pair id that does not exist. */
export function unknownSetPairText(pairId: number): string {
  return `Connector Credential Pair with ID: '${pairId}' does not exist`;
}

/** `user_group.py:51-72`: the main line refuses to share with the seeded groups. */
export function defaultGroupShareText(names: readonly string[]): string {
  return `Cannot share with the default system group(s): ${names.join(', ')}`;
}

const detail = (status: number, text: string): Answer => ({ status, body: { detail: text } });
const coded = (status: number, code: string, text: string): Answer => ({
  status,
  body: { error_code: code, detail: text },
});

export const DOCUMENT_SET_ANSWERS = {
  notFound(kind: ServerKind, id: number): Answer {
    return kind === 'main'
      ? coded(404, 'DOCUMENT_SET_NOT_FOUND', setNotFoundText(id))
      : detail(404, setNotFoundText(id));
  },
  /** Any validation or database failure (400). */
  invalid(kind: ServerKind, text: string): Answer {
    return kind === 'main' ? coded(400, 'VALIDATION_ERROR', text) : detail(400, text);
  },
  /** A scoped actor out of its scope: 403 on the main line, 400 for release 4.6.1's curators. */
  outOfScope(kind: ServerKind, text: string): Answer {
    if (kind === 'main') return coded(403, 'INSUFFICIENT_PERMISSIONS', text);
    return detail(kind === 'v4.6.1' ? 400 : 403, text);
  },
  /** Create: the new id, bare. */
  created(id: number): Answer {
    return { status: 200, body: id };
  },
  /** Update and delete: `null`. */
  done(): Answer {
    return { status: 200, body: null };
  },
} as const;

/** A document set as the rules read it. */
export interface SetFacts {
  readonly is_public: boolean;
  readonly groups: readonly number[];
  readonly users: readonly string[];
  /** The account that created it; null when unknown (sets without an owner). */
  readonly creator_id: string | null;
}

/** What a create or update asks for. */
export interface SetRequest extends SetFacts {
  readonly cc_pair_ids: readonly number[];
  readonly federated_connector_ids: readonly number[];
}

function isOwn(actor: Actor, set: SetFacts): boolean {
  return set.creator_id !== null && set.creator_id === actor.userId;
}

/** Main line: a manager's set is private with groups it all manages, or private groupless and its own. */
function inManagerScope(actor: Actor, set: SetFacts): boolean {
  if (set.is_public) return false;
  return set.groups.length === 0 ? isOwn(actor, set) : managesAll(actor, set.groups);
}

/** Release 4.6.1: a curator's sets are those in its groups, those it created, public unowned ones. */
function inCuratorScope(actor: Actor, set: SetFacts): boolean {
  if (isOwn(actor, set)) return true;
  if (set.is_public && set.creator_id === null) return true;
  return set.groups.some((g) => actor.managedGroupIds.includes(g));
}

/** The new state a curator (4.6.1) may write: public, or at least one group, all curated. */
function curatorRequestRefusal(actor: Actor, request: SetRequest): Answer | undefined {
  if (request.is_public) return undefined;
  if (request.groups.length === 0) {
    return DOCUMENT_SET_ANSWERS.outOfScope(actor.kind, DOCUMENT_SET_TEXTS.curatorNeedsGroups);
  }
  return managesAll(actor, request.groups)
    ? undefined
    : DOCUMENT_SET_ANSWERS.outOfScope(actor.kind, DOCUMENT_SET_TEXTS.curatorOutOfScope);
}

/**
 * Why the actor may not create (`before` undefined) or replace a set with `request`; undefined
 * when it may. `pairs` are the requested pairs as the rules read them (for the reach of a
 * manager). Global actors may do anything; managers (main) only non-public sets in their groups,
 * with pairs they reach (`api.py:83-109,131-161`); curators (4.6.1) public sets or sets of their
 * groups (`ee/.../db/user_group.py:185-249@v4.6.1`).
 */
export function setWriteRefusal(
  actor: Actor,
  before: SetFacts | undefined,
  request: SetRequest,
  pairs: readonly ScopedPair[],
): Answer | undefined {
  if (actor.global) return undefined;
  if (actor.kind === 'main') {
    const scope = DOCUMENT_SET_ANSWERS.outOfScope('main', DOCUMENT_SET_TEXTS.managerScope);
    if (before !== undefined && !inManagerScope(actor, before)) return scope;
    const after = { ...request, creator_id: before?.creator_id ?? actor.userId };
    if (!inManagerScope(actor, after)) return scope;
    if (!pairs.every((p) => mayEditPair(actor, p))) {
      return DOCUMENT_SET_ANSWERS.outOfScope('main', DOCUMENT_SET_TEXTS.unreachableConnector);
    }
    return undefined;
  }
  if (before !== undefined && !inCuratorScope(actor, before)) {
    return DOCUMENT_SET_ANSWERS.outOfScope(actor.kind, DOCUMENT_SET_TEXTS.curatorOutOfScope);
  }
  return curatorRequestRefusal(actor, request);
}

/**
 * Why the actor may not delete the set; undefined when it may. Main line: global holders, or the
 * creator of a private groupless set (`api.py:196-206`); release 4.6.1: a curator's sets.
 */
export function setDeleteRefusal(actor: Actor, set: SetFacts): Answer | undefined {
  if (actor.global) return undefined;
  if (actor.kind === 'main') {
    const own = !set.is_public && set.groups.length === 0 && isOwn(actor, set);
    return own
      ? undefined
      : DOCUMENT_SET_ANSWERS.outOfScope('main', DOCUMENT_SET_TEXTS.sharedDeletion);
  }
  return inCuratorScope(actor, set)
    ? undefined
    : DOCUMENT_SET_ANSWERS.outOfScope(actor.kind, DOCUMENT_SET_TEXTS.curatorOutOfScope);
}

/** The reader of a listing: the actor, and whether it reads every set outright. */
export interface SetReader {
  readonly actor: Actor;
  /** Holds `read:document_sets` (or more) globally, or is an admin. */
  readonly readsAll: boolean;
  /** The groups it belongs to. */
  readonly memberGroupIds: readonly number[];
}

/**
 * True when `GET /manage/document-set` lists the set to this reader (`document_set.py:42-91`).
 * `get_editable=true`: the sets it may edit; otherwise public sets, sets shared with one of its
 * groups or with it, and (main line) the sets it may edit too.
 */
export function setListed(reader: SetReader, set: SetFacts, editable: boolean): boolean {
  const { actor } = reader;
  if (actor.global) return true;
  const mayEdit =
    actor.managedGroupIds.length > 0 || isOwn(actor, set)
      ? actor.kind === 'main'
        ? inManagerScope(actor, set)
        : inCuratorScope(actor, set)
      : false;
  if (editable) return mayEdit;
  if (reader.readsAll || set.is_public) return true;
  if (set.groups.some((g) => reader.memberGroupIds.includes(g))) return true;
  if (set.users.includes(actor.userId)) return true;
  return actor.kind === 'main' && mayEdit;
}

/** The main line's `permissions` of a listed set for the caller (`permission_projection.py:101-115`). */
export function setPermissions(actor: Actor, set: SetFacts) {
  const edit =
    actor.global ||
    (actor.kind === 'main' ? inManagerScope(actor, set) : inCuratorScope(actor, set));
  return {
    edit,
    manage_access: edit,
    delete: setDeleteRefusal(actor, set) === undefined,
    publish: actor.global,
  };
}

/**
 * The first pair a non-public set may not hold (its id), or undefined: each private pair must be
 * linked to every group of the set; public and `sync` pairs pass (`document_set.py:284-322`).
 */
export function pairsNotOwnedByGroups(
  set: { readonly is_public: boolean; readonly groups: readonly number[] },
  pairs: readonly (ScopedPair & { readonly id: number })[],
): number | undefined {
  const { groups } = set;
  if (set.is_public || groups.length === 0) return undefined;
  const bad = pairs.find(
    (p) =>
      p.access_type.toLowerCase() === 'private' && !groups.every((g) => p.group_ids.includes(g)),
  );
  return bad?.id;
}
