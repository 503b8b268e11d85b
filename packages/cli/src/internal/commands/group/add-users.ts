/** `kis group add-users GROUP ACCOUNT…`: adds members (ids, or e-mails a listed group shows); they count at once. */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { findGroup, groupLabel, userIdsOf } from './groups.js';

export function addUsersCommand({ act, command }: CommandEnv): Command {
  return command('add-users')
    .description('add members to a user group (they see its private pairs at once)')
    .argument('<group>', 'the group (id or name)')
    .argument('<accounts...>', 'accounts: ids, or e-mails a listed group shows')
    .addHelpText(
      'after',
      `${EXAMPLES(['kis group add-users Support 3f2c1b7e-…', 'kis group add-users 4 agent@example.com'])}\n${wrap(
        'No route lists accounts: an e-mail is found among the members of the groups this key lists (on the main line every account is in a seeded group).',
      )}\n`,
    )
    .action(act((ctx, ref: string, accounts: string[]) => runAddUsers(ctx, ref, accounts)));
}

export async function runAddUsers(
  ctx: Context,
  ref: string,
  accounts: string[],
): Promise<ExitCodeValue> {
  const client = await ctx.client();
  const group = await findGroup(client, ref);
  const ids = await userIdsOf(client, accounts);
  const after = await client.userGroups.addUsers(group.id, ids);
  ctx.out.result(
    {
      user_group_id: after.id,
      name: after.name,
      action: 'users added',
      members: after.users.length,
    },
    `${groupLabel(after)}: ${ids.length} member(s) added, ${after.users.length} now`,
  );
  return ExitCode.Ok;
}
