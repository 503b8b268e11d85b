/**
 * `kis connector delete PAIR… [--yes] [--wait]`: starts each pair's deletion (the server removes
 * its documents from the index, then the pair, then the connector when no pair is left), after
 * asking on the terminal unless `--yes`; `--wait` follows each until the server no longer has it.
 */
import { type CcPairFullInfo, KisError } from '@kis/client';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { durationArg } from '../../arg-parsers.js';
import { confirmDeletion } from '../../confirm.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, type ExitCodeValue } from '../../errors.js';
import { formatDuration } from '../../output.js';
import { pairCall } from '../../pair-errors.js';
import { pairLabel } from '../../pair-ref.js';
import { eachPair, type PairAction, printSummary } from './each-pair.js';
import { pairHelp } from './pair-help.js';

export interface ConnectorDeleteOptions {
  yes?: boolean;
  wait?: boolean;
  /** With --wait: how long to wait for each pair, in ms. */
  waitFor: number;
}

export function deleteCommand({ act, command }: CommandEnv): Command {
  return command('delete')
    .description(
      'delete pairs with their documents (then their connector, when no pair is left); asks first',
    )
    .argument('<pairs...>', 'pair ids or connector names')
    .option('-y, --yes', 'do not ask (needed without a terminal)')
    .option('--wait', 'follow each deletion until the server no longer has the pair')
    .option(
      '--wait-for <duration>',
      'with --wait: the longest wait for each pair',
      durationArg,
      600_000,
    )
    .addHelpText(
      'after',
      pairHelp(
        [
          'kis connector delete 5',
          'kis connector delete "Project A" --yes --wait',
          'kis --json connector delete 5 7 --yes',
        ],
        'The server removes the documents only this pair indexed, the pair, and its connector when no other pair uses it; the credential stays. Without a terminal to ask on, --yes is required (exit 2).',
      ),
    )
    .action(
      act((ctx, pairs: string[], options: ConnectorDeleteOptions) =>
        runConnectorDelete(ctx, pairs, options),
      ),
    );
}

const deleteAction: PairAction = {
  name: 'delete',
  operationId: 'createDeletionAttempt',
  doing: (pair) => `deleting pair ${pair.id}`,
  async act(client, pair) {
    if (pair.status === 'DELETING') return { ok: true, message: 'already being deleted' };
    await client.pairs.requestDeletion(pair.connector.id, pair.credential.id);
    return { ok: true, message: 'deletion started' };
  },
};

/** "pair 5 "docs" (12 documents)", the pairs a question is about. */
function pairsText(pairs: readonly CcPairFullInfo[]): string {
  return pairs.map((p) => `${pairLabel(p)} (${p.num_docs_indexed} documents)`).join(', ');
}

/** Waits for each deleted pair to be gone; how many are (one still there after `waitFor` is not). */
async function waitUntilGone(
  ctx: Context,
  pairs: readonly CcPairFullInfo[],
  waitFor: number,
): Promise<number> {
  const client = await ctx.client();
  const { baseUrl } = await ctx.connection();
  let failed = 0;
  for (const pair of pairs) {
    const started = Date.now();
    try {
      await pairCall(
        {
          operationId: 'getCcPair',
          doing: `following the deletion of pair ${pair.id}`,
          ccPairId: pair.id,
          baseUrl,
        },
        () => client.pairs.waitUntilGone(pair.id, { waitMs: waitFor }),
      );
    } catch (error) {
      // the client's wait gives up with a plain Error; the server's and the key's failures stop us
      if (KisError.isInstance(error) || error instanceof CliError || !(error instanceof Error)) {
        throw error;
      }
      failed++;
      ctx.out.result({ cc_pair_id: pair.id, action: 'delete', gone: false, error: error.message });
      if (!ctx.out.mode.json) ctx.out.error(`${pairLabel(pair)}: ${error.message}`);
      continue;
    }
    const took = formatDuration(Date.now() - started);
    ctx.out.result(
      { cc_pair_id: pair.id, action: 'delete', gone: true },
      `${pairLabel(pair)}: gone (${took})`,
    );
  }
  return pairs.length - failed;
}

/** `kis connector delete PAIR… [--yes] [--wait]`. */
export async function runConnectorDelete(
  ctx: Context,
  refs: string[],
  options: ConnectorDeleteOptions,
): Promise<ExitCodeValue> {
  const confirm = (pairs: CcPairFullInfo[]) =>
    confirmDeletion(ctx, {
      yes: options.yes === true,
      flag: 'connector delete',
      what: `this deletes ${pairs.length} pair(s) and their documents`,
      question: `Delete ${pairsText(pairs)} and remove their documents from the index?`,
    });
  const result = await eachPair(ctx, refs, deleteAction, confirm);
  if (result.code === ExitCode.Usage) {
    // the person said no
    ctx.out.error(`nothing was deleted (${result.pairs.length} pair(s) asked for)`);
    return result.code;
  }
  if (!options.wait || result.done.length === 0) return printSummary(ctx, result);
  const gone = await waitUntilGone(ctx, result.done, options.waitFor);
  printSummary(ctx, result, { gone });
  return result.code === ExitCode.Ok && gone < result.done.length
    ? ExitCode.ItemsFailed
    : result.code;
}
