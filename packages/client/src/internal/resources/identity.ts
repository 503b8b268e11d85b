/**
 * `kis.identity` and `kis.apiKeys`: who the key is (`/me`, `/me/permissions`: a role on release
 * 4.6.1, an account type, groups and permissions on the main line) and creating keys.
 */
import type { KisClient } from '../../kis-client.js';
import type { RequestOptions } from '../../request-options.js';
import type { ApiKey, ApiKeyCreateRequest, PermissionsSummary, UserInfo } from '../../types.js';
import type { CallContext } from '../call.js';

function me(ctx: CallContext, opts?: RequestOptions): Promise<UserInfo> {
  return ctx.call((fetch) => ctx.api.GET('/me', { fetch }), opts);
}

/**
 * GET /me/permissions, in the main line's shape: release 4.6.1 answers a bare list, read as
 * `{ permissions, is_manager: false, managed_group_ids: [] }`.
 */
async function permissions(ctx: CallContext, opts?: RequestOptions): Promise<PermissionsSummary> {
  const path = '/me/permissions';
  const answer = await ctx.call((fetch) => ctx.api.GET(path, { fetch }), opts);
  return Array.isArray(answer)
    ? { permissions: answer, is_manager: false, managed_group_ids: [] }
    : answer;
}

/** Said when a creation failed in a way that may have created the key. */
const KEY_HINT = 'The key may or may not have been created; list the keys before retrying.';

/** POST /admin/api-key: not retried once the server may have acted. */
function createKey(
  ctx: CallContext,
  body: ApiKeyCreateRequest,
  opts?: RequestOptions,
): Promise<ApiKey> {
  const path = '/admin/api-key';
  const control = { ...opts, retryMode: 'unsafe' as const, unsafeHint: KEY_HINT };
  return ctx.call((fetch) => ctx.api.POST(path, { body, fetch }), control, KEY_HINT);
}

export function identityResource(ctx: CallContext): KisClient['identity'] {
  return {
    me: async (opts) => me(ctx, opts),
    permissions: async (opts) => permissions(ctx, opts),
  };
}

export function apiKeysResource(ctx: CallContext): KisClient['apiKeys'] {
  return { create: async (body, opts) => createKey(ctx, body, opts) };
}
