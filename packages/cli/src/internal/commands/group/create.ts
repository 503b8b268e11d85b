/**
 * `kis group create NAME [--user …] [--pair …]`: a user group with its members and pairs (its
 * members then see those pairs' private documents once the group has synced: `--wait`).
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { collect } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import type { ExitCodeValue } from '../../errors.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { type WaitFlags, withWaitFlags } from '../../scope-wait.js';
import { afterGroupChange, pairIdsOf, userIdsOf } from './groups.js';

export interface GroupCreateOptions extends WaitFlags {
  user: string[];
  pair: string[];
}

export function createCommand({ act, command }: CommandEnv): Command {
  return withWaitFlags(
    command('create')
      .description('create a user group with its members and pairs')
      .argument('<name>', 'its name (unique; documents carry it)')
      .option(
        '--user <account>',
        'a member (account id, or an e-mail a listed group shows); repeat',
        collect,
        [] as string[],
      )
      .option(
        '--pair <pair>',
        'a pair (id or name) its members see; repeat',
        collect,
        [] as string[],
      ),
    'its first sync is done',
  )
    .addHelpText(
      'after',
      `${EXAMPLES(['kis group create Support --pair Tickets --wait', 'kis group create Sales --user 3f2c…'])}\n${wrap(
        'Creating and deleting groups needs an admin key (main line: the global manage:user_groups permission). Needs the enterprise edition at the Business plan or above: otherwise one error says which (exit 3).',
      )}\n`,
    )
    .action(
      act((ctx, name: string, options: GroupCreateOptions) => runGroupCreate(ctx, name, options)),
    );
}

export async function runGroupCreate(
  ctx: Context,
  name: string,
  options: GroupCreateOptions,
): Promise<ExitCodeValue> {
  const client = await ctx.client();
  const users = await userIdsOf(client, options.user);
  const pairs = await pairIdsOf(ctx, options.pair);
  const group = await client.userGroups.create({ name, user_ids: users, cc_pair_ids: pairs });
  const done = `created with ${users.length} member(s) and ${pairs.length} pair(s)`;
  return afterGroupChange(ctx, client, group, done, options);
}
