/**
 * `kis group update GROUP`: its members or pairs (replaced by what the flags give; the rest is
 * kept: servers take a full replace, `groupUpdateBody` of the rule book), then its name. Both
 * start a sync the other waits for, so a rename after a change of pairs follows that sync first.
 */
import { groupUpdateBody } from '@kis/rules';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { collect } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { type ExitCodeValue, UsageError } from '../../errors.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { type WaitFlags, withWaitFlags } from '../../scope-wait.js';
import { afterGroupChange, findGroup, groupLabel, pairIdsOf, userIdsOf } from './groups.js';

export interface GroupUpdateOptions extends WaitFlags {
  name?: string;
  user: string[];
  /** `--no-users`: false. */
  users?: boolean;
  pair: string[];
  /** `--no-pairs`: false. */
  pairs?: boolean;
}

export function updateCommand({ act, command }: CommandEnv): Command {
  return withWaitFlags(
    command('update')
      .description('change a user group: its members, its pairs, its name')
      .argument('<group>', 'the group (id or name)')
      .option('--name <name>', 'its new name (its documents carry it: a sync follows)')
      .option(
        '--user <account>',
        'its members, replacing them (id or e-mail; repeat)',
        collect,
        [] as string[],
      )
      .option('--no-users', 'no member')
      .option(
        '--pair <pair>',
        'its pairs, replacing them (id or name; repeat)',
        collect,
        [] as string[],
      )
      .option('--no-pairs', 'no pair'),
    'the change has synced',
  )
    .addHelpText(
      'after',
      `${EXAMPLES(['kis group update Support --pair Tickets --pair Deals --wait', 'kis group update 4 --name "Customer support"'])}\n${wrap(
        'Servers refuse a change while the last one syncs (exit 1: run it again later). Members count at once; pairs and names reach the documents through the sync.',
      )}\n`,
    )
    .action(
      act((ctx, ref: string, options: GroupUpdateOptions) => runGroupUpdate(ctx, ref, options)),
    );
}

export async function runGroupUpdate(
  ctx: Context,
  ref: string,
  options: GroupUpdateOptions,
): Promise<ExitCodeValue> {
  const users = options.users === false ? [] : options.user.length > 0 ? options.user : undefined;
  const pairs = options.pairs === false ? [] : options.pair.length > 0 ? options.pair : undefined;
  if (
    (options.users === false && options.user.length > 0) ||
    (options.pairs === false && options.pair.length > 0)
  ) {
    throw new UsageError(
      'group update: --user with --no-users, or --pair with --no-pairs: give one of them',
    );
  }
  if (users === undefined && pairs === undefined && options.name === undefined) {
    throw new UsageError(
      'group update: nothing to change: give --user, --no-users, --pair, --no-pairs or --name',
    );
  }
  const client = await ctx.client();
  let group = await findGroup(client, ref);
  if (users !== undefined || pairs !== undefined) {
    const change = {
      user_ids: users === undefined ? undefined : await userIdsOf(client, users),
      cc_pair_ids: pairs === undefined ? undefined : await pairIdsOf(ctx, pairs),
    };
    group = await client.userGroups.update(group.id, groupUpdateBody(group, change));
    ctx.out.info(`${groupLabel(group)}: members and pairs updated`);
  }
  if (options.name !== undefined) {
    if (!group.is_up_to_date) {
      ctx.out.info(`${groupLabel(group)}: waiting for its sync before the rename…`);
      await client.userGroups.waitUntilSynced(group.id, { waitMs: options.waitFor });
    }
    group = await client.userGroups.rename(group.id, options.name);
  }
  return afterGroupChange(ctx, client, group, 'updated', options);
}
