/**
 * `kis docset create NAME --pair PAIR…`: a document set of pairs (ids or names), public unless it
 * is shared with groups or users; `--wait` follows its first sync.
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { collect } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { type ExitCodeValue, UsageError } from '../../errors.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { accountIds } from '../../scope-ref.js';
import { type WaitFlags, withWaitFlags } from '../../scope-wait.js';
import { afterChange, groupIdsOf, pairIdsOf, publicFlag } from './sets.js';

export interface DocsetCreateOptions extends WaitFlags {
  pair: string[];
  description?: string;
  public?: boolean;
  private?: boolean;
  group: string[];
  user: string[];
}

export function createCommand({ act, command }: CommandEnv): Command {
  return withWaitFlags(
    command('create')
      .description('create a document set of pairs, public or shared with groups and users')
      .argument('<name>', 'its name (unique on the server; searches filter by it)')
      .option('--pair <pair>', 'a pair (id or name); repeat for more', collect, [] as string[])
      .option('--description <text>', 'what it holds')
      .option('--public', 'every user may use it (the default without --group or --user)')
      .option('--private', 'only its groups and users may use it')
      .option(
        '--group <group>',
        'a user group (id or name) to share it with',
        collect,
        [] as string[],
      )
      .option(
        '--user <account>',
        'an account (id or e-mail) to share it with',
        collect,
        [] as string[],
      ),
    'its first sync is done',
  )
    .addHelpText(
      'after',
      `${EXAMPLES([
        'kis docset create Handbook --pair "Team docs" --pair 7',
        'kis docset create "Support answers" --pair Tickets --group Support --wait',
      ])}\n${wrap(
        "A private set's private pairs must each belong to every group of the set (kis group add-pairs). Exit code 0 when created (and synced, with --wait), 1 when the wait timed out, 2 for an unknown pair or group, 3 when the server refuses the key or the feature.",
      )}\n`,
    )
    .action(
      act((ctx, name: string, options: DocsetCreateOptions) => runDocsetCreate(ctx, name, options)),
    );
}

export async function runDocsetCreate(
  ctx: Context,
  name: string,
  options: DocsetCreateOptions,
): Promise<ExitCodeValue> {
  if (options.pair.length === 0) {
    throw new UsageError(
      'docset create: give its pairs with --pair (an id or a name; repeat for more)',
    );
  }
  const client = await ctx.client();
  const pairs = await pairIdsOf(ctx, options.pair);
  const groups = await groupIdsOf(client, options.group);
  const users =
    options.user.length === 0
      ? []
      : accountIds(options.user, await client.userGroups.list({ includeDefault: true }));
  const isPublic = publicFlag(options) ?? (groups.length === 0 && users.length === 0);
  const id = await client.documentSets.create({
    name,
    description: options.description ?? '',
    cc_pair_ids: pairs,
    is_public: isPublic,
    users,
    groups,
  });
  const shared = isPublic
    ? 'public'
    : `shared with ${groups.length} group(s), ${users.length} user(s)`;
  return afterChange(
    ctx,
    client,
    { id, name },
    `created with ${pairs.length} pair(s), ${shared}`,
    options,
  );
}
