// The caller as the rule book's scoped rules of sets and groups read it (`Actor`): on the main
// line a global holder of the route's permission, or a manager of some groups; on release 4.6.1
// an admin, or a curator of some groups (a global curator: every group it belongs to); on the
// seed's kind an admin key (the spec's roles decide the rest).
import { type Actor, grants, managedGroupIds, PERMISSIONS, type ScopedPair } from '@kis/rules';
import type { Caller } from '../access.js';
import { currentGroupIds, type PairRecord } from '../store/pairs.js';
import type { HandlerContext } from './context.js';

/** A pair as the scoped rules read it. */
export function scopedPair(pair: PairRecord): ScopedPair & { id: number } {
  return { id: pair.id, access_type: pair.access_type, group_ids: currentGroupIds(pair) };
}

/** Every handler here is behind a key check: the caller is known. */
export function known(caller: Caller | undefined): Caller {
  if (caller === undefined) throw new Error('an operation behind a key check got no caller');
  return caller;
}

/** The actor; `permission` is the main line's token that makes it global. */
export function actorOf(
  ctx: Pick<HandlerContext, 'kind' | 'store'>,
  caller: Caller,
  permission: string,
): Actor & { isAdmin: boolean; permissions: readonly string[] } {
  const { identity, permissions } = caller;
  const isAdmin =
    ctx.kind === 'main' ? grants(permissions, PERMISSIONS.admin) : identity.role === 'admin';
  return {
    kind: ctx.kind,
    userId: identity.userId,
    global: ctx.kind === 'main' ? grants(permissions, permission) : isAdmin,
    managedGroupIds: managedGroupIds(
      ctx.kind,
      identity.role,
      ctx.store.memberships.ofUser(identity.userId),
    ),
    isAdmin,
    permissions,
  };
}
