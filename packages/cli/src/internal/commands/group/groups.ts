/**
 * What the `kis group` sub-commands share: the group a GROUP argument names (the seeded groups
 * included), the accounts and pairs their arguments name (ids, names, e-mails), how a group is
 * printed after a change, and `--wait` for groups.
 */
import type { KisClient, UserGroup } from '@kis/client';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { resolvePairIds } from '../../pair-ref.js';
import { accountIds, findAllNamed, findNamed, namedLabel } from '../../scope-ref.js';
import { type WaitFlags, waitForScope } from '../../scope-wait.js';

export const groupLabel = (group: { id: number; name: string }) => namedLabel('user group', group);

/** Every group listed to the key, the seeded ones included. */
export function listGroups(client: KisClient): Promise<UserGroup[]> {
  return client.userGroups.list({ includeDefault: true });
}

/** The group GROUP names (an id or a name). */
export async function findGroup(client: KisClient, ref: string): Promise<UserGroup> {
  return findNamed('user group', ref, await listGroups(client));
}

/** The groups GROUP arguments name, in order. */
export async function findGroups(client: KisClient, refs: readonly string[]): Promise<UserGroup[]> {
  return findAllNamed('user group', refs, await listGroups(client));
}

/** Account ids from ids or e-mails (e-mails of accounts a listed group shows). */
export async function userIdsOf(client: KisClient, refs: readonly string[]): Promise<string[]> {
  if (refs.length === 0) return [];
  if (!refs.some((r) => r.includes('@'))) return [...new Set(refs)];
  return accountIds(refs, await listGroups(client));
}

/** Pair ids from ids or names (the CLI's PAIR rule, `pair-ref.ts`). */
export async function pairIdsOf(ctx: Context, refs: readonly string[]): Promise<number[]> {
  if (refs.length === 0) return [];
  const { baseUrl } = await ctx.connection();
  return resolvePairIds(await ctx.client(), refs, baseUrl, 'updateUserGroup');
}

/**
 * Prints what was done to the group; with `--wait`, waits for its sync (a change of its pairs or
 * name starts one; members alone do not).
 */
export async function afterGroupChange(
  ctx: Context,
  client: KisClient,
  group: { id: number; name: string },
  done: string,
  flags: WaitFlags,
): Promise<ExitCodeValue> {
  ctx.out.result(
    { user_group_id: group.id, name: group.name, action: done },
    `${groupLabel(group)}: ${done}`,
  );
  if (!flags.wait) return ExitCode.Ok;
  return waitForScope(ctx, {
    noun: 'user group',
    rows: [group],
    until: 'synced',
    list: () => listGroups(client),
    waitFor: flags.waitFor,
  });
}
