/** `kis connector resume PAIR…`: paused (or invalid) pairs are indexed again. */
import { isIndexable } from '@kis/rules';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import type { ExitCodeValue } from '../../errors.js';
import { actOnPairs, type PairAction } from './each-pair.js';
import { pairHelp } from './pair-help.js';

export function resumeCommand({ act, command }: CommandEnv): Command {
  return command('resume')
    .description('resume paused (or invalid) pairs: they are indexed again')
    .argument('<pairs...>', 'pair ids or connector names')
    .addHelpText(
      'after',
      pairHelp(
        ['kis connector resume 5', 'kis connector resume 5 7'],
        'A pair that is not paused is left as it is; one being deleted is not resumed (that would stop its deletion).',
      ),
    )
    .action(act((ctx, pairs: string[]) => runConnectorResume(ctx, pairs)));
}

const resumeAction: PairAction = {
  name: 'resume',
  operationId: 'setCcPairStatus',
  doing: (pair) => `resuming pair ${pair.id}`,
  async act(client, pair) {
    if (pair.status === 'DELETING') return { ok: false, error: 'not resumed: it is being deleted' };
    // setting ACTIVE on a pair that is indexed already would skip its first-run states
    if (isIndexable(pair.status)) return { ok: true, message: `not paused (${pair.status})` };
    await client.pairs.resume(pair.id);
    return { ok: true, message: `resumed (was ${pair.status})` };
  },
};

/** `kis connector resume PAIR…`. */
export async function runConnectorResume(ctx: Context, refs: string[]): Promise<ExitCodeValue> {
  return actOnPairs(ctx, refs, resumeAction);
}
