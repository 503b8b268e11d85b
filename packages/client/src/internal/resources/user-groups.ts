/**
 * `kis.userGroups`: groups of accounts (enterprise edition): a pair's groups see its documents.
 * Changes of pairs and names reach the documents through the server's sync (`is_up_to_date`),
 * members at once. Servers without the enterprise edition answer 404 on every route, those below
 * the Business plan 402: both become `FeatureUnavailableError`. Where the main line and release
 * 4.6.1 differ (managers against curators, the group's document-set call), the call finds the
 * route the server has (`docs/deployed-servers.md`, "User groups").
 */
import { isRouteNotFound, ROUTE_VARIANTS, setUpdateBody } from '@kis/rules';
import { KisError } from '../../errors.js';
import type { KisClient } from '../../kis-client.js';
import type { RequestOptions } from '../../request-options.js';
import type {
  GroupDocumentSetChange,
  SyncWaitOptions,
  UserGroupListOptions,
} from '../../search-options.js';
import type { UserGroup } from '../../types.js';
import { checkInt } from '../arguments.js';
import type { CallContext } from '../call.js';
import { pollUntil } from '../poll.js';
import { onServedRoute } from '../route-variants.js';
import { listDocumentSets, updateDocumentSet } from './document-sets.js';

const GROUPS = '/manage/admin/user-group';
const ONE = '/manage/admin/user-group/{user_group_id}';
const [MANAGER_PATH, CURATOR_PATH] = ROUTE_VARIANTS.groupManager;
const [GROUP_SETS_PATH] = ROUTE_VARIANTS.groupDocumentSets;

/** Said after a create whose answer was lost: the group may exist (names are unique). */
const CREATE_HINT = 'The group may have been created: list the groups before creating it again.';

const idOf = (id: number) => ({ path: { user_group_id: checkInt('userGroupId', id) } });

function listGroups(ctx: CallContext, opts: UserGroupListOptions = {}): Promise<UserGroup[]> {
  const { includeDefault = false, ...request } = opts;
  return ctx.call(
    (fetch) =>
      ctx.api.GET(GROUPS, {
        params: { query: { include_default: includeDefault } },
        fetch,
      }),
    { ...request },
  );
}

/** The group as listed (seeded ones included), or undefined once it is gone. */
async function findGroup(ctx: CallContext, id: number, opts: RequestOptions) {
  const groups = await listGroups(ctx, { ...opts, includeDefault: true });
  return groups.find((g) => g.id === id);
}

function uniqueIds(name: string, ids: readonly number[] | undefined): number[] {
  return [...new Set((ids ?? []).map((id) => checkInt(name, id)))];
}

/**
 * Release 4.6.1 has no group call for document sets: each set's `groups` is replaced instead
 * (a full replace of the set, from its listed summary).
 */
async function shareThroughSets(
  ctx: CallContext,
  groupId: number,
  add: readonly number[],
  remove: readonly number[],
  opts: RequestOptions,
): Promise<void> {
  if ((await findGroup(ctx, groupId, opts)) === undefined) {
    throw new KisError(`user group ${groupId} is not listed to this key`);
  }
  const sets = await listDocumentSets(ctx, { ...opts, editable: true });
  for (const id of [...add, ...remove]) {
    const set = sets.find((s) => s.id === id);
    if (set === undefined) throw new KisError(`document set ${id} is not editable by this key`);
    const groups = add.includes(id)
      ? [...new Set([...set.groups, groupId])]
      : set.groups.filter((g) => g !== groupId);
    await updateDocumentSet(ctx, setUpdateBody(set, { groups }), opts);
  }
}

/** PATCH …/document-sets (main line), else the sets themselves (release 4.6.1). */
async function shareDocumentSets(
  ctx: CallContext,
  groupId: number,
  change: GroupDocumentSetChange,
  opts: RequestOptions = {},
): Promise<void> {
  const add = uniqueIds('add', change.add);
  const remove = uniqueIds('remove', change.remove);
  if (ctx.routes.groupDocumentSets !== 1) {
    let missing = false;
    const body = { added_document_set_ids: add, removed_document_set_ids: remove };
    const shared = await ctx
      .call(async (fetch) => {
        const answer = await ctx.api.PATCH(GROUP_SETS_PATH, { params: idOf(groupId), body, fetch });
        missing = isRouteNotFound(answer.response.status, answer.error);
        return answer;
      }, opts)
      .then(
        () => true,
        (error: unknown) => {
          // a server without the route (release 4.6.1): the sets themselves are changed below
          if (!missing) throw error;
          return false;
        },
      );
    if (shared) {
      ctx.routes.groupDocumentSets = 0;
      return;
    }
  }
  ctx.routes.groupDocumentSets = 1;
  await shareThroughSets(ctx, groupId, add, remove, opts);
}

/** PUT …/manager (main line), else POST …/set-curator (release 4.6.1). */
async function setManager(
  ctx: CallContext,
  groupId: number,
  userId: string,
  isManager: boolean,
  opts: RequestOptions = {},
): Promise<void> {
  if (typeof userId !== 'string' || userId === '') {
    throw new TypeError('userGroups.setManager: userId must be an account id');
  }
  const params = idOf(groupId);
  await ctx.call(
    (fetch) =>
      onServedRoute(ctx.routes, 'groupManager', (i) =>
        i === 0
          ? ctx.api.PUT(MANAGER_PATH, {
              params,
              body: { user_id: userId, is_manager: isManager },
              fetch,
            })
          : ctx.api.POST(CURATOR_PATH, {
              params,
              body: { user_id: userId, is_curator: isManager },
              fetch,
            }),
      ),
    opts,
  );
}

/** `kis.userGroups`. */
export function userGroupsResource(ctx: CallContext): KisClient['userGroups'] {
  return {
    list: async (opts) => listGroups(ctx, opts),
    create: async (body, opts) =>
      ctx.call(
        (fetch) =>
          ctx.api.POST(GROUPS, {
            body,
            fetch,
          }),
        { ...opts, retryMode: 'unsafe', unsafeHint: CREATE_HINT },
        CREATE_HINT,
      ),
    update: async (id, body, opts) =>
      ctx.call((fetch) => ctx.api.PATCH(ONE, { params: idOf(id), body, fetch }), opts),
    addUsers: async (id, userIds, opts) =>
      ctx.call(
        (fetch) =>
          ctx.api.POST('/manage/admin/user-group/{user_group_id}/add-users', {
            params: idOf(id),
            body: { user_ids: [...userIds] },
            fetch,
          }),
        opts,
      ),
    rename: async (id, name, opts) =>
      ctx.call(
        (fetch) =>
          ctx.api.PATCH('/manage/admin/user-group/rename', {
            body: { id: checkInt('userGroupId', id), name },
            fetch,
          }),
        opts,
      ),
    shareDocumentSets: async (id, change, opts) => shareDocumentSets(ctx, id, change, opts),
    setManager: async (id, userId, isManager, opts) => setManager(ctx, id, userId, isManager, opts),
    async delete(id, opts) {
      await ctx.call((fetch) => ctx.api.DELETE(ONE, { params: idOf(id), fetch }), opts);
    },
    async waitUntilSynced(id, opts: SyncWaitOptions = {}) {
      const { waitMs = 600_000, ...request } = opts;
      const group = await pollUntil(
        () => findGroup(ctx, checkInt('userGroupId', id), request),
        (g) => g === undefined || g.is_up_to_date,
        `user group ${id} syncing`,
        waitMs,
        request.signal,
      );
      if (group === undefined) throw new KisError(`user group ${id} is not listed to this key`);
      return group;
    },
    async waitUntilGone(id, opts: SyncWaitOptions = {}) {
      const { waitMs = 600_000, ...request } = opts;
      await pollUntil(
        () => findGroup(ctx, checkInt('userGroupId', id), request),
        (g) => g === undefined,
        `user group ${id} deletion`,
        waitMs,
        request.signal,
      );
    },
  };
}
