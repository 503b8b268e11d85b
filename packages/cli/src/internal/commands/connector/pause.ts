/** `kis connector pause PAIR…`: no index attempt runs until the pairs are resumed. */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import type { ExitCodeValue } from '../../errors.js';
import { actOnPairs, type PairAction } from './each-pair.js';
import { pairHelp } from './pair-help.js';

export function pauseCommand({ act, command }: CommandEnv): Command {
  return command('pause')
    .description(
      'pause pairs: no index attempt runs until they are resumed (a running one is canceled)',
    )
    .argument('<pairs...>', 'pair ids or connector names')
    .addHelpText(
      'after',
      pairHelp(
        ['kis connector pause 5', 'kis connector pause "Project A" "Project B"'],
        'A pair being deleted is not paused (that would stop its deletion).',
      ),
    )
    .action(act((ctx, pairs: string[]) => runConnectorPause(ctx, pairs)));
}

const pauseAction: PairAction = {
  name: 'pause',
  operationId: 'setCcPairStatus',
  doing: (pair) => `pausing pair ${pair.id}`,
  async act(client, pair) {
    // a pause would stop the deletion: servers delete only pairs that stay DELETING
    if (pair.status === 'DELETING') return { ok: false, error: 'not paused: it is being deleted' };
    if (pair.status === 'PAUSED') return { ok: true, message: 'already paused' };
    await client.pairs.pause(pair.id);
    return {
      ok: true,
      message: pair.indexing ? 'paused; its running attempt is being canceled' : 'paused',
    };
  },
};

/** `kis connector pause PAIR…`. */
export async function runConnectorPause(ctx: Context, refs: string[]): Promise<ExitCodeValue> {
  return actOnPairs(ctx, refs, pauseAction);
}
