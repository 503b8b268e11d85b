/** `kis docset remove SET PAIR…`: takes pairs (ids or names) out of a document set; `--wait` follows the sync. */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import type { ExitCodeValue } from '../../errors.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import type { WaitFlags } from '../../scope-wait.js';
import { withWaitFlags } from '../../scope-wait.js';
import { changePairs } from './pairs.js';

export function removeCommand({ act, command }: CommandEnv): Command {
  return withWaitFlags(
    command('remove')
      .description('take pairs out of a document set')
      .argument('<set>', 'the set (id or name)')
      .argument('<pairs...>', 'pairs (ids or names)'),
    'the change has synced',
  )
    .addHelpText(
      'after',
      `${EXAMPLES(['kis docset remove Handbook 7'])}\n${wrap('A set keeps at least one pair: to empty it, delete it (kis docset delete).')}\n`,
    )
    .action(
      act(
        (ctx: Context, set: string, pairs: string[], options: WaitFlags): Promise<ExitCodeValue> =>
          changePairs(ctx, set, pairs, 'remove', options),
      ),
    );
}
