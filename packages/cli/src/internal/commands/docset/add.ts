/** `kis docset add SET PAIR…`: adds pairs (ids or names) to a document set; `--wait` follows the sync. */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import type { ExitCodeValue } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import type { WaitFlags } from '../../scope-wait.js';
import { withWaitFlags } from '../../scope-wait.js';
import { changePairs } from './pairs.js';

export function addCommand({ act, command }: CommandEnv): Command {
  return withWaitFlags(
    command('add')
      .description('add pairs to a document set')
      .argument('<set>', 'the set (id or name)')
      .argument('<pairs...>', 'pairs (ids or names)'),
    'the change has synced',
  )
    .addHelpText('after', EXAMPLES(['kis docset add Handbook "Team docs" 7 --wait']))
    .action(
      act(
        (ctx: Context, set: string, pairs: string[], options: WaitFlags): Promise<ExitCodeValue> =>
          changePairs(ctx, set, pairs, 'add', options),
      ),
    );
}
