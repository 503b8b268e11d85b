/** `kis connector prune PAIR`: starts a prune on the server; a running one (409) is said as such. */
import { ConflictError } from '@kis/client';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import type { ExitCodeValue } from '../../errors.js';
import { actOnPairs, type PairAction } from './each-pair.js';
import { pairHelp } from './pair-help.js';

export function pruneCommand({ act, command }: CommandEnv): Command {
  return command('prune')
    .description('remove from the index the documents of a pair that its source no longer has')
    .argument('<pair>', 'pair id or connector name')
    .addHelpText(
      'after',
      pairHelp(
        ['kis connector prune 5', 'kis connector prune "Project A"'],
        'The prune runs on the server; `kis connector status` shows when one last finished. A prune already running is said (exit 1).',
      ),
    )
    .action(act((ctx, pair: string) => runConnectorPrune(ctx, pair)));
}

const pruneAction: PairAction = {
  name: 'prune',
  operationId: 'pruneCcPair',
  doing: (pair) => `pruning pair ${pair.id}`,
  async act(client, pair) {
    if (pair.status === 'DELETING') return { ok: false, error: 'not pruned: it is being deleted' };
    try {
      // one attempt: a 409 means a prune runs, which a retry would only hear again
      await client.pairs.prune(pair.id, { maxRetries: 0 });
    } catch (error) {
      if (ConflictError.isInstance(error)) {
        return { ok: false, error: 'not pruned: a prune of this pair is already running' };
      }
      throw error;
    }
    return {
      ok: true,
      message: `prune started: documents gone from its source leave the index in the background (kis connector status ${pair.id} shows when it last finished)`,
    };
  },
};

/** `kis connector prune PAIR`. */
export async function runConnectorPrune(ctx: Context, ref: string): Promise<ExitCodeValue> {
  return actOnPairs(ctx, [ref], pruneAction);
}
