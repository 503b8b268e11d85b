// Who a key is and what it may do (`/me`, `/me/permissions`), and API key creation, per key model
// (docs/deployed-servers.md, "Keys and their rights"): the main line answers a service account
// with its groups and effective permissions; release 4.6.1, and the seed's kind, a role.
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_KEY_ROLE,
  effectivePermissions,
  KEY_ACCOUNT_TYPE,
  LIFECYCLE_ANSWERS,
  roleKeyGroup,
  type UserRole,
} from '@kis/rules';
import type { Caller } from '../access.js';
import { digestOf, generateKey, type KeyIdentity } from '../auth.js';
import { AnswerError } from '../errors.js';
import type { Handlers, Schemas } from '../op-types.js';
import type { GroupRecord } from '../store/groups.js';
import type { HandlerContext } from './context.js';

/** Where the emulator's key accounts get their e-mail addresses (a reserved, unroutable domain). */
const KEY_EMAIL_DOMAIN = '.apikey.kis-emulator.invalid';

/** The fields `/me` answers for a key on every deployed server. */
function userBase(identity: KeyIdentity): Schemas['UserInfoBase'] {
  return {
    id: identity.userId,
    // API_KEY__<name or Unnamed>@<account uuid><key domain>, as servers name key accounts
    email: `API_KEY__${identity.name ?? 'Unnamed'}@${identity.userId}${KEY_EMAIL_DOMAIN}`,
    is_active: true,
    is_superuser: false,
    is_verified: true,
    preferences: {},
    personalization: null,
    token_expires_at: null,
    is_cloud_superuser: false,
    team_name: null,
    is_anonymous_user: false,
    password_configured: false,
    tenant_info: null,
  };
}

/** Every handler here is behind a key check: the caller is known. */
function known(caller: Caller | undefined): Caller {
  if (caller === undefined) throw new Error('an operation behind a key check got no caller');
  return caller;
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
  return {
    getMe({ caller }) {
      const { identity, permissions } = known(caller);
      const base = userBase(identity);
      const body: Schemas['UserInfo'] = main
        ? {
            ...base,
            account_type: KEY_ACCOUNT_TYPE,
            effective_permissions: effectivePermissions(permissions),
            is_group_manager: false,
          }
        : { ...base, role: identity.role };
      return { status: 200, body };
    },

    getMyPermissions({ caller }) {
      const permissions = effectivePermissions(known(caller).permissions);
      return {
        status: 200,
        body: main ? { permissions, is_manager: false, managed_group_ids: [] } : permissions,
      };
    },

    // The key is answered once, here; the store keeps its digest only.
    createApiKey({ body }) {
      const { role, groups } = keyModel(ctx, body);
      const key = generateKey('key');
      const record = ctx.store.apiKeys.create({
        digest: digestOf(key),
        name: body.name ?? null,
        display: display(key),
        role,
        user_id: randomUUID(),
        group_ids: groups.map((g) => g.id),
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
