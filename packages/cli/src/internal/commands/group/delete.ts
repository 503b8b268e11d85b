/**
 * `kis group delete GROUP… [--yes] [--wait]`: deletes user groups (their members no longer see
 * the group's private pairs once the sync has run), after asking on the terminal unless `--yes`;
 * a deleted group stays listed until its sync removes it, which `--wait` follows.
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { confirmDeletion } from '../../confirm.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { type WaitFlags, waitForScope, withWaitFlags } from '../../scope-wait.js';
import { findGroups, groupLabel, listGroups } from './groups.js';

export interface GroupDeleteOptions extends WaitFlags {
  yes?: boolean;
}

export function deleteCommand({ act, command }: CommandEnv): Command {
  return withWaitFlags(
    command('delete')
      .description('delete user groups (their members lose sight of the private pairs); asks first')
      .argument('<groups...>', 'groups (ids or names)')
      .option('-y, --yes', 'do not ask (needed without a terminal)'),
    'the server no longer lists them',
  )
    .addHelpText('after', EXAMPLES(['kis group delete Sales', 'kis group delete 4 5 --yes --wait']))
    .action(
      act((ctx, refs: string[], options: GroupDeleteOptions) => runGroupDelete(ctx, refs, options)),
    );
}

export async function runGroupDelete(
  ctx: Context,
  refs: string[],
  options: GroupDeleteOptions,
): Promise<ExitCodeValue> {
  const client = await ctx.client();
  const groups = await findGroups(client, refs);
  const ok = await confirmDeletion(ctx, {
    yes: options.yes === true,
    flag: 'group delete',
    what: `this deletes ${groups.length} user group(s)`,
    question: `Delete ${groups.map(groupLabel).join(', ')}? Their members lose sight of its private pairs.`,
  });
  if (!ok) {
    ctx.out.error('nothing was deleted');
    return ExitCode.Usage;
  }
  for (const group of groups) {
    await client.userGroups.delete(group.id);
    ctx.out.result(
      { user_group_id: group.id, name: group.name, action: 'deleted' },
      `${groupLabel(group)}: deleted; listed until the server's sync removes it`,
    );
  }
  if (!options.wait) return ExitCode.Ok;
  return waitForScope(ctx, {
    noun: 'user group',
    rows: groups,
    until: 'gone',
    list: () => listGroups(client),
    waitFor: options.waitFor,
  });
}
