// Who may call an operation, per kind of server (`@kis/rules`): a route the kind of server lacks
// is FastAPI's 404, one the edition lacks 404 or 402 (`editionRefusal`); then the seed checks the
// least role of the spec's `x-kis-role`; the main line a permission token per operation, which a
// key holds through its groups (`mainLineDenial`; scoped routes admit group managers); release
// 4.6.1 the key's role and its groups' grants (`releaseDenial`). The answers of every refusal
// are the rule book's.
import {
  ANSWERS,
  type Answer,
  accessFor,
  type Edition,
  editionRefusal,
  groupKeyPermissions,
  LIFECYCLE_ANSWERS,
  mainLineDenial,
  type Profile,
  releaseDenial,
  releaseKeyPermissions,
  roleAllows,
  roleKeyPermissions,
  type ServerKind,
  servedOn,
} from '@kis/rules';
import { type KeyIdentity, type KeyRing, seedRoleOf } from './auth.js';
import type { Route } from './routes.js';
import type { Store } from './store/index.js';

/** The key a request came with, and the permission tokens it holds on this kind of server. */
export interface Caller {
  identity: KeyIdentity;
  permissions: readonly string[];
}

/** A request let through (`caller` undefined for an operation that needs no key), or refused. */
export type Admission = { caller: Caller | undefined } | { refused: Answer };

export class AccessGate {
  constructor(
    private readonly keys: KeyRing,
    private readonly store: Store,
    private readonly profile: Profile,
    readonly kind: ServerKind,
    private readonly edition: Edition,
  ) {}

  /** Stops the start-up when an operation the emulator serves has no access rule. */
  checkRules(operationIds: readonly string[]): void {
    if (this.kind === 'seed') return;
    const missing = operationIds.filter((id) => accessFor(id) === undefined);
    if (missing.length > 0) {
      throw new Error(
        `the rule book has no access rule (OPERATION_ACCESS) for the spec operation(s) ${missing.join(', ')}`,
      );
    }
  }

  /** The permission tokens `identity` holds on this kind of server: its groups' grants. */
  permissionsOf(identity: KeyIdentity): readonly string[] {
    if (this.kind === 'seed') return roleKeyPermissions(identity.role);
    const memberships = this.store.memberships.ofUser(identity.userId);
    const grants = this.store.groups.byIds(memberships.map((m) => m.group_id)).map((g) => g.grants);
    return this.kind === 'main'
      ? groupKeyPermissions(grants)
      : releaseKeyPermissions(identity.role, grants);
  }

  /** True when the key's account manages (or curates) a group. */
  private managesGroups(identity: KeyIdentity): boolean {
    return this.store.memberships.ofUser(identity.userId).some((m) => m.is_manager);
  }

  admit(route: Route, authorization: string | undefined): Admission {
    const operationId = route.op.operationId;
    if (!servedOn(this.kind, operationId)) return { refused: ANSWERS.routeNotFound() };
    const missing = editionRefusal(this.edition, operationId);
    if (missing !== undefined) return { refused: missing };
    if (route.role === undefined) return { caller: undefined };
    const identity = this.keys.identify(authorization);
    if (identity === undefined) return { refused: this.unauthenticated(operationId) };
    const caller = { identity, permissions: this.permissionsOf(identity) };
    const refused = this.denial(operationId, route.role, caller);
    return refused === undefined ? { caller } : { refused };
  }

  /** A missing or unknown key: `/me` (any valid key passes it) answers it its own way. */
  private unauthenticated(operationId: string): Answer {
    const anyKey = accessFor(operationId)?.main.kind === 'key';
    return anyKey && this.kind !== 'seed'
      ? LIFECYCLE_ANSWERS.meUnauthorized()
      : ANSWERS.notAuthenticated(this.profile);
  }

  private denial(
    operationId: string,
    leastRole: NonNullable<Route['role']>,
    caller: Caller,
  ): Answer | undefined {
    if (this.kind === 'main') {
      return mainLineDenial(operationId, caller.permissions, this.managesGroups(caller.identity));
    }
    if (this.kind === 'v4.6.1') {
      return releaseDenial(operationId, caller.identity.role, caller.permissions);
    }
    const role = seedRoleOf(caller.identity);
    return role !== undefined && roleAllows(role, leastRole)
      ? undefined
      : ANSWERS.missingRole(this.profile, leastRole);
  }
}
