/**
 * `kis connector prune PAIR [--delete-pushed-documents]`: starts a prune on the server, after
 * asking the client what it would remove (`pairs.prunePreview`). A prune deletes every document
 * the connector does not list, pushed ones included (a file connector lists only its files), so
 * one that would delete documents needs the flag; a running one (409) is said as such.
 */
import { ConflictError, type PrunePreview } from '@kis/client';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import type { ExitCodeValue } from '../../errors.js';
import { pairCall } from '../../pair-errors.js';
import { pairLabel } from '../../pair-ref.js';
import { eachPair, type PairAction, printSummary } from './each-pair.js';
import { pairHelp } from './pair-help.js';

/** The flag that lets a prune delete documents its connector does not list. */
export const DELETE_PUSHED_FLAG = '--delete-pushed-documents';

export interface ConnectorPruneOptions {
  deletePushedDocuments?: boolean;
}

export function pruneCommand({ act, command }: CommandEnv): Command {
  return command('prune')
    .description('remove from the index the documents of a pair that its source no longer has')
    .argument('<pair>', 'pair id or connector name')
    .option(
      DELETE_PUSHED_FLAG,
      'prune even when it deletes documents the connector does not list (every pushed document of a file connector with no files)',
    )
    .addHelpText(
      'after',
      pairHelp(
        [
          'kis connector prune 5',
          'kis connector prune "Project A"',
          `kis connector prune "Team docs" ${DELETE_PUSHED_FLAG}`,
        ],
        `The prune runs on the server; \`kis connector status\` shows when one last finished. A prune already running is said (exit 1). A prune deletes every document of the pair that its connector does not list, pushed ones included: a file connector lists only its file_locations, so a prune of its pair deletes every document pushed into it. Such a prune is refused (exit 2) with the number of documents it would delete, unless ${DELETE_PUSHED_FLAG} is given. A pair of an ingestion_api connector (kis connector create --for-ingestion) is never emptied: servers fail its prune and delete nothing.`,
      ),
    )
    .action(
      act((ctx, pair: string, options: ConnectorPruneOptions) =>
        runConnectorPrune(ctx, pair, options),
      ),
    );
}

/** What the prune started: what it is, and for a pair no prune can empty, that it deletes nothing. */
function startedMessage(pair: { id: number }, preview: PrunePreview | undefined): string {
  const status = `kis connector status ${pair.id} shows when it last finished`;
  if (preview?.listing === 'fails') {
    return `prune started: its ${preview.connector.source} connector lists nothing to prune against, so servers fail this prune and delete nothing (${status})`;
  }
  return `prune started: documents gone from its source leave the index in the background (${status})`;
}

/** Why a prune that would delete documents is refused, in one line. */
function refusal(preview: PrunePreview): string {
  const what =
    preview.listing === 'file-locations'
      ? 'its file connector lists only its file_locations, so every pushed document goes'
      : `its ${preview.connector.source} connector does not list them`;
  return `not pruned: a prune would delete ${preview.removes} of its ${preview.documents} document(s) (${what}); pass ${DELETE_PUSHED_FLAG} to prune anyway`;
}

/** `kis connector prune PAIR`. */
export async function runConnectorPrune(
  ctx: Context,
  ref: string,
  options: ConnectorPruneOptions = {},
): Promise<ExitCodeValue> {
  const { baseUrl } = await ctx.connection();
  const previews = new Map<number, PrunePreview>();
  const action: PairAction = {
    name: 'prune',
    operationId: 'pruneCcPair',
    doing: (pair) => `pruning pair ${pair.id}`,
    async act(client, pair) {
      if (pair.status === 'DELETING')
        return { ok: false, error: 'not pruned: it is being deleted' };
      try {
        // one attempt: a 409 means a prune runs, which a retry would only hear again
        await client.pairs.prune(pair.id, { maxRetries: 0 });
      } catch (error) {
        if (ConflictError.isInstance(error)) {
          return { ok: false, error: 'not pruned: a prune of this pair is already running' };
        }
        throw error;
      }
      return { ok: true, message: startedMessage(pair, previews.get(pair.id)) };
    },
  };
  const result = await eachPair(ctx, [ref], action, async (pairs) => {
    const client = await ctx.client();
    for (const pair of pairs) {
      const preview = await pairCall(
        {
          ccPairId: pair.id,
          baseUrl,
          operationId: 'listConnectorDocuments',
          doing: `listing the documents of pair ${pair.id}`,
        },
        () => client.pairs.prunePreview(pair.id),
      );
      previews.set(pair.id, preview);
      if ((preview.removes ?? 0) > 0 && options.deletePushedDocuments !== true) {
        ctx.out.result({
          cc_pair_id: pair.id,
          action: 'prune',
          ok: false,
          error: refusal(preview),
          documents: preview.documents,
          deletes: preview.removes,
        });
        if (!ctx.out.mode.json) ctx.out.error(`${pairLabel(pair)}: ${refusal(preview)}`);
        return false;
      }
    }
    return true;
  });
  return printSummary(ctx, result);
}
