/**
 * Who acts on document sets and user groups, as their scoped rules read it
 * (docs/deployed-servers.md, "Document sets", "User groups"): a global holder of the route's
 * permission (main line) or an admin (release 4.6.1, the seed's kind) may act on anything; a
 * group manager (main line) or curator (release 4.6.1) only within the groups it manages.
 */
import type { UserRole } from './key-models.js';
import type { ServerKind } from './server-kinds.js';

export interface Actor {
  readonly kind: ServerKind;
  /** The account acting (for a key, the key's own account). */
  readonly userId: string;
  /** Holds the route's permission outright (main line), or is an admin (other kinds). */
  readonly global: boolean;
  /** The groups it manages (main line) or curates (release 4.6.1); empty for others. */
  readonly managedGroupIds: readonly number[];
}

/** One group membership of an account. */
export interface Membership {
  readonly group_id: number;
  /** Manager (main line) or curator (release 4.6.1) of the group. */
  readonly is_manager: boolean;
}

/**
 * The groups an account manages: on the main line those it is a manager of; on release 4.6.1 a
 * `curator` those it curates, a `global_curator` every group it belongs to
 * (`ee/.../db/user_group.py:635-673@v4.6.1`); the seed's kind has no scoped roles.
 */
export function managedGroupIds(
  kind: ServerKind,
  role: UserRole,
  memberships: readonly Membership[],
): number[] {
  if (kind === 'main') return memberships.filter((m) => m.is_manager).map((m) => m.group_id);
  if (kind === 'v4.6.1') {
    if (role === 'global_curator') return memberships.map((m) => m.group_id);
    if (role === 'curator') return memberships.filter((m) => m.is_manager).map((m) => m.group_id);
  }
  return [];
}

/** True when every id of `groups` is one the actor manages (and there is at least one). */
export function managesAll(actor: Actor, groups: readonly number[]): boolean {
  return groups.length > 0 && groups.every((g) => actor.managedGroupIds.includes(g));
}

/** A pair as the scoped rules read it. */
export interface ScopedPair {
  readonly access_type: string;
  /** Ids of the groups currently linked to it. */
  readonly group_ids: readonly number[];
}

/**
 * True when the actor may edit (or attach) the pair: global actors any; managers only private
 * pairs whose every group they manage (`cc_pair.py:812-823`, `db/connector_credential_pair.py:
 * 171-226@v4.6.1`).
 */
export function mayEditPair(actor: Actor, pair: ScopedPair): boolean {
  if (actor.global) return true;
  return pair.access_type.toLowerCase() !== 'public' && managesAll(actor, pair.group_ids);
}
