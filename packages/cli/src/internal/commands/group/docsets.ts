/**
 * `kis group docsets GROUP --add SET… --remove SET…`: shares document sets with a user group, or
 * stops (the main line's group call; release 4.6.1 changes each set's groups instead, which the
 * client does); `--wait` follows the sets' sync.
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { collect } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../../errors.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { findAllNamed } from '../../scope-ref.js';
import { type WaitFlags, waitForScope, withWaitFlags } from '../../scope-wait.js';
import { findGroup, groupLabel } from './groups.js';

export interface GroupDocsetsOptions extends WaitFlags {
  add: string[];
  remove: string[];
}

export function docsetsCommand({ act, command }: CommandEnv): Command {
  return withWaitFlags(
    command('docsets')
      .description('share document sets with a user group, or stop sharing them')
      .argument('<group>', 'the group (id or name)')
      .option('--add <set>', 'a set (id or name) to share; repeat', collect, [] as string[])
      .option(
        '--remove <set>',
        'a set (id or name) to stop sharing; repeat',
        collect,
        [] as string[],
      ),
    "the sets' change has synced",
  )
    .addHelpText(
      'after',
      `${EXAMPLES(['kis group docsets Support --add "Support answers" --wait', 'kis group docsets 4 --remove Handbook'])}\n${wrap(
        "A private set's private pairs must each belong to the group (kis group add-pairs).",
      )}\n`,
    )
    .action(
      act((ctx, ref: string, options: GroupDocsetsOptions) => runGroupDocsets(ctx, ref, options)),
    );
}

export async function runGroupDocsets(
  ctx: Context,
  ref: string,
  options: GroupDocsetsOptions,
): Promise<ExitCodeValue> {
  if (options.add.length + options.remove.length === 0) {
    throw new UsageError('group docsets: give --add SET or --remove SET (repeat for more)');
  }
  const client = await ctx.client();
  const group = await findGroup(client, ref);
  const sets = await client.documentSets.list({ editable: true });
  const add = findAllNamed('document set', options.add, sets);
  const remove = findAllNamed('document set', options.remove, sets);
  const both = add.filter((s) => remove.includes(s));
  if (both.length > 0) {
    throw new UsageError(`group docsets: "${both[0]?.name}" is both added and removed`);
  }
  await client.userGroups.shareDocumentSets(group.id, {
    add: add.map((s) => s.id),
    remove: remove.map((s) => s.id),
  });
  ctx.out.result(
    {
      user_group_id: group.id,
      name: group.name,
      action: 'document sets shared',
      added: add.map((s) => s.id),
      removed: remove.map((s) => s.id),
    },
    `${groupLabel(group)}: ${add.length} document set(s) shared, ${remove.length} no longer`,
  );
  if (!options.wait) return ExitCode.Ok;
  return waitForScope(ctx, {
    noun: 'document set',
    rows: [...add, ...remove],
    until: 'synced',
    list: () => client.documentSets.list(),
    waitFor: options.waitFor,
  });
}
