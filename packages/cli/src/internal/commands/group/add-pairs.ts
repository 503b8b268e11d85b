/**
 * `kis group add-pairs GROUP PAIR…`: links pairs (ids or names) to a user group, whose members
 * then see their private documents once the sync has run (`--wait`). The one call that changes an
 * existing pair's groups: the group's full replace (`groupUpdateBody` of the rule book).
 */
import { groupUpdateBody } from '@kis/rules';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { type WaitFlags, withWaitFlags } from '../../scope-wait.js';
import { afterGroupChange, findGroup, groupLabel, pairIdsOf } from './groups.js';

export function addPairsCommand({ act, command }: CommandEnv): Command {
  return withWaitFlags(
    command('add-pairs')
      .description('link pairs to a user group (its members see their private documents)')
      .argument('<group>', 'the group (id or name)')
      .argument('<pairs...>', 'pairs (ids or names)'),
    'the change has synced',
  )
    .addHelpText('after', EXAMPLES(['kis group add-pairs Support Tickets Deals --wait']))
    .action(
      act((ctx, ref: string, pairs: string[], options: WaitFlags) =>
        runAddPairs(ctx, ref, pairs, options),
      ),
    );
}

export async function runAddPairs(
  ctx: Context,
  ref: string,
  pairRefs: string[],
  options: WaitFlags,
): Promise<ExitCodeValue> {
  const client = await ctx.client();
  const group = await findGroup(client, ref);
  const ids = await pairIdsOf(ctx, pairRefs);
  const current = group.cc_pairs.map((p) => p.id);
  const added = ids.filter((id) => !current.includes(id));
  if (added.length === 0) {
    ctx.out.result(
      { user_group_id: group.id, name: group.name, action: 'unchanged' },
      `${groupLabel(group)}: unchanged (it holds those pairs already)`,
    );
    return ExitCode.Ok;
  }
  const after = await client.userGroups.update(
    group.id,
    groupUpdateBody(group, { cc_pair_ids: [...current, ...added] }),
  );
  const done = `${added.length} pair(s) added, ${after.cc_pairs.length} now`;
  return afterGroupChange(ctx, client, after, done, options);
}
