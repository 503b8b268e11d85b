/**
 * `kis connector run PAIR… [--from-beginning]`: each pair is read first, so that what the server
 * would take and quietly not do (a run of a paused pair, a second run) is said instead.
 */
import type { CcPairFullInfo, KisClient } from '@kis/client';
import { isIndexable } from '@kis/rules';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import type { ExitCodeValue } from '../../errors.js';
import { actOnPairs, type PairAction, type PairOutcome } from './each-pair.js';
import { pairHelp } from './pair-help.js';

export interface ConnectorRunOptions {
  fromBeginning?: boolean;
}

export function runCommand({ act, command }: CommandEnv): Command {
  return command('run')
    .description('index pairs now (run once): what changed since the last run, or everything')
    .argument('<pairs...>', 'pair ids or connector names')
    .option('--from-beginning', 're-read the whole source instead of what changed')
    .addHelpText(
      'after',
      pairHelp(
        [
          'kis connector run 5',
          'kis connector run 5 7 --from-beginning',
          'kis connector run "Project A" && kis connector status "Project A" --watch',
        ],
        'A paused, invalid or deleting pair is not run, and neither is one whose attempt is already running or waiting (each said on its own line, exit 1). The attempt starts when a server worker takes it.',
      ),
    )
    .action(
      act((ctx, pairs: string[], options: ConnectorRunOptions) =>
        runConnectorRun(ctx, pairs, options),
      ),
    );
}

/** Why a pair in `status` gets no index attempt, or undefined when it gets them. */
function notIndexed(pair: CcPairFullInfo): string | undefined {
  if (isIndexable(pair.status)) return undefined;
  switch (pair.status) {
    case 'PAUSED':
      return `is paused; a run would wait until it is resumed (kis connector resume ${pair.id})`;
    case 'DELETING':
      return 'is being deleted';
    case 'INVALID':
      return `is INVALID (its connector failed validation repeatedly); a run would wait until it is resumed (kis connector resume ${pair.id})`;
    default:
      return `is ${pair.status}, which gets no index attempt`;
  }
}

function runAction(fromBeginning: boolean): PairAction {
  return {
    name: 'run',
    operationId: 'runConnectorOnce',
    doing: (pair) => `running pair ${pair.id}`,
    async act(client: KisClient, pair: CcPairFullInfo): Promise<PairOutcome> {
      const why = notIndexed(pair);
      if (why !== undefined) return { ok: false, error: `not run: the pair ${why}` };
      // run once for this pair's credential only; `data` counts the attempts it triggered
      const answer = await client.connectors.runOnce(pair.connector.id, {
        credentialIds: [pair.credential.id],
        fromBeginning,
      });
      if (answer.data === 0) {
        return {
          ok: false,
          error: `not run: an index attempt is already running or waiting (kis connector status ${pair.id})`,
        };
      }
      const how = fromBeginning ? ', re-reading the whole source' : '';
      return { ok: true, message: `run started${how} (kis connector status ${pair.id} --watch)` };
    },
  };
}

/** `kis connector run PAIR… [--from-beginning]`. */
export async function runConnectorRun(
  ctx: Context,
  refs: string[],
  options: ConnectorRunOptions,
): Promise<ExitCodeValue> {
  return actOnPairs(ctx, refs, runAction(options.fromBeginning === true));
}
