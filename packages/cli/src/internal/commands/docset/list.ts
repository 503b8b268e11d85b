/**
 * `kis docset list`: one row per document set the key may use: its pairs, who it is shared with
 * (everyone, or groups and users), and whether its last change has synced to its documents. Group
 * names are read only when a set names groups (a server without groups lists their ids).
 */
import {
  type DocumentSetSummary,
  FeatureUnavailableError,
  type KisClient,
  type UserGroup,
} from '@kis/client';
import { setBeingDeleted } from '@kis/rules';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { tableLines } from '../../table.js';

export function listCommand({ act, command }: CommandEnv): Command {
  return command('list')
    .description('list the document sets: pairs, who may use each, whether its last change synced')
    .option('--editable', 'only the sets this key may change')
    .addHelpText(
      'after',
      EXAMPLES(['kis docset list', 'kis --json docset list', 'kis docset list --editable']),
    )
    .action(act((ctx, options: { editable?: boolean }) => runDocsetList(ctx, options)));
}

/** The groups' names, when a set names groups and the server has them. */
async function groupNames(client: KisClient, sets: readonly DocumentSetSummary[]) {
  if (!sets.some((s) => s.groups.length > 0)) return new Map<number, string>();
  const groups: UserGroup[] = await client.userGroups
    .list({ includeDefault: true })
    .catch((error: unknown) => {
      if (FeatureUnavailableError.isInstance(error)) return [];
      throw error;
    });
  return new Map(groups.map((g) => [g.id, g.name]));
}

/** `synced`, `syncing` or `being deleted`. */
function syncState(set: DocumentSetSummary): string {
  if (setBeingDeleted(set)) return 'being deleted';
  return set.is_up_to_date ? 'synced' : 'syncing';
}

export async function runDocsetList(
  ctx: Context,
  options: { editable?: boolean },
): Promise<ExitCodeValue> {
  const client = await ctx.client();
  const sets = (await client.documentSets.list({ editable: options.editable === true })).sort(
    (a, b) => a.id - b.id,
  );
  const names = await groupNames(client, sets);
  const groupOf = (id: number) => ({ id, name: names.get(id) ?? null });
  const rows = sets.map((s) => {
    const shared = s.is_public
      ? 'everyone'
      : [
          ...s.groups.map((g) => `group ${names.get(g) ?? g}`),
          ...(s.users.length > 0 ? [`${s.users.length} user(s)`] : []),
        ].join(', ') || 'its creator';
    ctx.out.result({
      id: s.id,
      name: s.name,
      description: s.description ?? null,
      public: s.is_public,
      pairs: s.cc_pair_summaries.map((p) => ({ id: p.id, name: p.name ?? null })),
      groups: s.groups.map(groupOf),
      users: s.users,
      state: syncState(s),
    });
    const pairs = s.cc_pair_summaries.map((p) => p.name ?? `pair ${p.id}`).join(', ');
    return [String(s.id), s.name, pairs || '(none)', shared, syncState(s)];
  });
  if (rows.length === 0) ctx.out.human('No document set is listed to this key.');
  else
    for (const line of tableLines(['ID', 'NAME', 'PAIRS', 'SHARED WITH', 'STATE'], rows)) {
      ctx.out.human(line);
    }
  return ExitCode.Ok;
}
