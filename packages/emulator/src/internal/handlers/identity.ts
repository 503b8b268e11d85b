// Who a key is and what it may do (`/me`, `/me/permissions`), and API key creation, per key model
// (docs/deployed-servers.md, "Keys and their rights"): the main line answers a service account
// with its groups and effective permissions; release 4.6.1, and the seed's kind, a role.
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_KEY_ROLE,
  effectivePermissions,
  KEY_ACCOUNT_TYPE,
  keyAccountEmail,
  LIFECYCLE_ANSWERS,
  roleKeyGroup,
  type UserRole,
} from '@kis/rules';
import type { Caller } from '../access.js';
import { digestOf, generateKey, type KeyIdentity } from '../auth.js';
import { AnswerError } from '../errors.js';
import { accountView } from '../group-views.js';
import type { Handlers, Schemas } from '../op-types.js';
import { KEY_EMAIL_DOMAIN } from '../store/accounts.js';
import type { GroupRecord } from '../store/groups.js';
import { known } from './actors.js';
import type { HandlerContext } from './context.js';

/** The fields `/me` answers for a key on every deployed server. */
function userBase(identity: KeyIdentity): Schemas['UserInfoBase'] {
  // API_KEY__<name or Unnamed>@<account uuid><key domain>, as servers name key accounts
  const email = keyAccountEmail(identity.name, identity.userId, KEY_EMAIL_DOMAIN);
  return accountView({ id: identity.userId, email });
}

/** The key's masked form: its first and last four characters. */
function display(key: string): string {
  return `${key.slice(0, 4)}****${key.slice(-4)}`;
}

type KeyBody = Schemas['ApiKeyCreateRequest'];

/** A new key's role and groups as this kind of server reads the body. */
function keyModel(ctx: HandlerContext, body: KeyBody): { role: UserRole; groups: GroupRecord[] } {
  const all = ctx.store.groups.list();
  if (ctx.kind === 'main') {
    const ids = 'group_ids' in body ? (body.group_ids ?? []) : [];
    const missing = ids.filter((id) => !all.some((g) => g.id === id));
    if (missing.length > 0) throw new AnswerError(LIFECYCLE_ANSWERS.unknownGroups(missing));
    return { role: DEFAULT_KEY_ROLE, groups: ctx.store.groups.byIds([...new Set(ids)]) };
  }
  const role = ('role' in body ? body.role : undefined) ?? DEFAULT_KEY_ROLE;
  const group = roleKeyGroup(role);
  return { role, groups: all.filter((g) => g.name === group) };
}

export function identityHandlers(
  ctx: HandlerContext,
): Pick<Handlers, 'getMe' | 'getMyPermissions' | 'createApiKey'> {
  const main = ctx.kind === 'main';
  const managed = (caller: Caller) =>
    ctx.store.memberships
      .ofUser(caller.identity.userId)
      .filter((m) => m.is_manager)
      .map((m) => m.group_id);
  return {
    getMe({ caller }) {
      const { identity, permissions } = known(caller);
      const base = userBase(identity);
      const body: Schemas['UserInfo'] = main
        ? {
            ...base,
            account_type: KEY_ACCOUNT_TYPE,
            effective_permissions: effectivePermissions(permissions),
            is_group_manager: managed(known(caller)).length > 0,
          }
        : { ...base, role: identity.role };
      return { status: 200, body };
    },

    getMyPermissions({ caller }) {
      const permissions = effectivePermissions(known(caller).permissions);
      const ids = managed(known(caller));
      return {
        status: 200,
        body: main
          ? { permissions, is_manager: ids.length > 0, managed_group_ids: ids }
          : permissions,
      };
    },

    // The key is answered once, here; the store keeps its digest only. Its account joins its
    // groups (its rights, and the groups its access names).
    createApiKey({ body }) {
      const { role, groups } = keyModel(ctx, body);
      const key = generateKey('key');
      const { store } = ctx;
      const record = store.transaction(() => {
        const made = store.apiKeys.create({
          digest: digestOf(key),
          name: body.name ?? null,
          display: display(key),
          role,
          user_id: randomUUID(),
          group_ids: groups.map((g) => g.id),
        });
        store.accounts.register({ id: made.user_id, name: made.name, role });
        for (const group of groups) store.memberships.add(group.id, [made.user_id]);
        return made;
      });
      const common = {
        api_key_id: record.id,
        api_key_display: record.display,
        api_key: key,
        api_key_name: record.name,
        user_id: record.user_id,
      };
      return {
        status: 200,
        body: main
          ? { ...common, groups: groups.map((g) => ({ id: g.id, name: g.name })) }
          : { ...common, api_key_role: role },
      };
    },
  };
}
