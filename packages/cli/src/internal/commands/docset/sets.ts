/**
 * What the `kis docset` sub-commands share: the set a SET argument names, the pairs and groups
 * their flags name (ids or names), how a set is printed after a change, and `--wait` for sets.
 */
import type { DocumentSetSummary, KisClient } from '@kis/client';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../../errors.js';
import { resolvePairIds } from '../../pair-ref.js';
import { findAllNamed, findNamed, namedLabel } from '../../scope-ref.js';
import { type WaitFlags, waitForScope } from '../../scope-wait.js';

export const setLabel = (set: { id: number; name: string }) => namedLabel('document set', set);

/** The set SET names (an id or a name), from the listing. */
export async function findSet(client: KisClient, ref: string): Promise<DocumentSetSummary> {
  return findNamed('document set', ref, await client.documentSets.list());
}

/** The sets SET arguments name, in order. */
export async function findSets(
  client: KisClient,
  refs: readonly string[],
): Promise<DocumentSetSummary[]> {
  return findAllNamed('document set', refs, await client.documentSets.list());
}

/** Pair ids from ids or names (the CLI's PAIR rule, `pair-ref.ts`). */
export async function pairIdsOf(ctx: Context, refs: readonly string[]): Promise<number[]> {
  const { baseUrl } = await ctx.connection();
  return resolvePairIds(await ctx.client(), refs, baseUrl, 'updateDocumentSet');
}

/** Group ids from ids or names; none given is no call (servers without groups then work). */
export async function groupIdsOf(client: KisClient, refs: readonly string[]): Promise<number[]> {
  if (refs.length === 0) return [];
  const groups = await client.userGroups.list({ includeDefault: true });
  return findAllNamed('user group', refs, groups).map((g) => g.id);
}

/** `--public` or `--private`, or undefined when neither; a usage error for both. */
export function publicFlag(options: { public?: boolean; private?: boolean }): boolean | undefined {
  if (options.public && options.private) {
    throw new UsageError('--public and --private: give one of them');
  }
  return options.public ? true : options.private ? false : undefined;
}

/** Prints what was done to the set, then waits for its sync with `--wait`. */
export async function afterChange(
  ctx: Context,
  client: KisClient,
  set: { id: number; name: string },
  done: string,
  flags: WaitFlags,
): Promise<ExitCodeValue> {
  ctx.out.result(
    { document_set_id: set.id, name: set.name, action: done },
    `${setLabel(set)}: ${done}; the server syncs it to its documents${flags.wait ? '' : ' (kis docset list shows when it is done)'}`,
  );
  if (!flags.wait) return ExitCode.Ok;
  return waitForScope(ctx, {
    noun: 'document set',
    rows: [set],
    until: 'synced',
    list: () => client.documentSets.list(),
    waitFor: flags.waitFor,
  });
}
