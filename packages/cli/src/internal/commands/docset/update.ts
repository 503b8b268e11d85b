/**
 * `kis docset update SET`: changes its name, description, privacy, pairs, groups or users (what
 * the flags give; the rest is kept: servers take a full replace, `setUpdateBody` of the rule
 * book); `--wait` follows the sync. Refused while its last change syncs.
 */
import { setUpdateBody } from '@kis/rules';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { collect } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { type ExitCodeValue, UsageError } from '../../errors.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { accountIds } from '../../scope-ref.js';
import { type WaitFlags, withWaitFlags } from '../../scope-wait.js';
import { afterChange, findSet, groupIdsOf, pairIdsOf, publicFlag } from './sets.js';

export interface DocsetUpdateOptions extends WaitFlags {
  name?: string;
  description?: string;
  public?: boolean;
  private?: boolean;
  pair: string[];
  group: string[];
  /** `--no-groups`: false. */
  groups?: boolean;
  user: string[];
}

export function updateCommand({ act, command }: CommandEnv): Command {
  return withWaitFlags(
    command('update')
      .description('change a document set: name, description, privacy, pairs, groups or users')
      .argument('<set>', 'the set (id or name)')
      .option('--name <name>', 'its new name')
      .option('--description <text>', 'its new description')
      .option('--public', 'every user may use it')
      .option('--private', 'only its groups and users may use it')
      .option(
        '--pair <pair>',
        'its pairs, replacing them (id or name; repeat)',
        collect,
        [] as string[],
      )
      .option(
        '--group <group>',
        'its groups, replacing them (id or name; repeat)',
        collect,
        [] as string[],
      )
      .option('--no-groups', 'share it with no group')
      .option(
        '--user <account>',
        'its users, replacing them (id or e-mail; repeat)',
        collect,
        [] as string[],
      ),
    'the change has synced',
  )
    .addHelpText(
      'after',
      `${EXAMPLES([
        'kis docset update Handbook --description "The team handbook"',
        'kis docset update 4 --private --group Support --wait',
      ])}\n${wrap(
        'Servers refuse a change while the last one syncs (exit 1: run it again later, or wait with --wait on the change before). kis docset add and remove change the pairs one at a time.',
      )}\n`,
    )
    .action(
      act((ctx, ref: string, options: DocsetUpdateOptions) => runDocsetUpdate(ctx, ref, options)),
    );
}

export async function runDocsetUpdate(
  ctx: Context,
  ref: string,
  options: DocsetUpdateOptions,
): Promise<ExitCodeValue> {
  const isPublic = publicFlag(options);
  const given = [
    options.name,
    options.description,
    isPublic,
    options.pair.length || undefined,
    options.group.length || undefined,
    options.groups === false || undefined,
    options.user.length || undefined,
  ];
  if (given.every((v) => v === undefined)) {
    throw new UsageError(
      'docset update: nothing to change: give --name, --description, --public/--private, --pair, --group, --no-groups or --user',
    );
  }
  if (options.groups === false && options.group.length > 0) {
    throw new UsageError('docset update: --group and --no-groups: give one of them');
  }
  const client = await ctx.client();
  const set = await findSet(client, ref);
  const change = {
    name: options.name,
    description: options.description,
    is_public: isPublic,
    cc_pair_ids: options.pair.length > 0 ? await pairIdsOf(ctx, options.pair) : undefined,
    groups:
      options.groups === false
        ? []
        : options.group.length > 0
          ? await groupIdsOf(client, options.group)
          : undefined,
    users:
      options.user.length > 0
        ? accountIds(options.user, await client.userGroups.list({ includeDefault: true }))
        : undefined,
  };
  await client.documentSets.update(setUpdateBody(set, change));
  return afterChange(
    ctx,
    client,
    { id: set.id, name: change.name ?? set.name },
    'updated',
    options,
  );
}
