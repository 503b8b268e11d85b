/**
 * `kis docset delete SET… [--yes] [--wait]`: deletes document sets (their documents stay in the
 * index; only the set goes), after asking on the terminal unless `--yes`; a deleted set stays
 * listed until its sync removes it, which `--wait` follows.
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { confirmDeletion } from '../../confirm.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { type WaitFlags, waitForScope, withWaitFlags } from '../../scope-wait.js';
import { findSets, setLabel } from './sets.js';

export interface DocsetDeleteOptions extends WaitFlags {
  yes?: boolean;
}

export function deleteCommand({ act, command }: CommandEnv): Command {
  return withWaitFlags(
    command('delete')
      .description('delete document sets (their documents stay); asks first')
      .argument('<sets...>', 'sets (ids or names)')
      .option('-y, --yes', 'do not ask (needed without a terminal)'),
    'the server no longer lists them',
  )
    .addHelpText(
      'after',
      EXAMPLES(['kis docset delete Handbook', 'kis docset delete 4 7 --yes --wait']),
    )
    .action(
      act((ctx, refs: string[], options: DocsetDeleteOptions) =>
        runDocsetDelete(ctx, refs, options),
      ),
    );
}

export async function runDocsetDelete(
  ctx: Context,
  refs: string[],
  options: DocsetDeleteOptions,
): Promise<ExitCodeValue> {
  const client = await ctx.client();
  const sets = await findSets(client, refs);
  const ok = await confirmDeletion(ctx, {
    yes: options.yes === true,
    flag: 'docset delete',
    what: `this deletes ${sets.length} document set(s)`,
    question: `Delete ${sets.map(setLabel).join(', ')}? Their documents stay in the index.`,
  });
  if (!ok) {
    ctx.out.error('nothing was deleted');
    return ExitCode.Usage;
  }
  for (const set of sets) {
    await client.documentSets.delete(set.id);
    ctx.out.result(
      { document_set_id: set.id, name: set.name, action: 'deleted' },
      `${setLabel(set)}: deleted; listed until the server's sync removes it`,
    );
  }
  if (!options.wait) return ExitCode.Ok;
  return waitForScope(ctx, {
    noun: 'document set',
    rows: sets,
    until: 'gone',
    list: () => client.documentSets.list(),
    waitFor: options.waitFor,
  });
}
