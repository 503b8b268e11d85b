/**
 * `kis connector run PAIR… [--from-beginning]`, `pause PAIR…`, `resume PAIR…` and `prune PAIR`:
 * each pair is read first, so that what the server would take and quietly not do (a run of a
 * paused pair, a second run, pausing a pair being deleted) is said instead.
 */
import { type CcPairFullInfo, ConflictError, type KisClient } from '@kis/client';
import { isIndexable } from '@kis/rules';
import type { Context } from '../../context.js';
import type { ExitCodeValue } from '../../errors.js';
import { actOnPairs, type PairAction, type PairOutcome } from './each-pair.js';

export interface ConnectorRunOptions {
  fromBeginning?: boolean;
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

/** `kis connector run PAIR… [--from-beginning]`. */
export async function runConnectorRun(
  ctx: Context,
  refs: string[],
  options: ConnectorRunOptions,
): Promise<ExitCodeValue> {
  return actOnPairs(ctx, refs, runAction(options.fromBeginning === true));
}

/** `kis connector pause PAIR…`. */
export async function runConnectorPause(ctx: Context, refs: string[]): Promise<ExitCodeValue> {
  return actOnPairs(ctx, refs, pauseAction);
}

/** `kis connector resume PAIR…`. */
export async function runConnectorResume(ctx: Context, refs: string[]): Promise<ExitCodeValue> {
  return actOnPairs(ctx, refs, resumeAction);
}

/** `kis connector prune PAIR`: starts a prune; a running one (409) is said as such. */
export async function runConnectorPrune(ctx: Context, ref: string): Promise<ExitCodeValue> {
  const prune: PairAction = {
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
      return {
        ok: true,
        message: `prune started: documents gone from its source leave the index in the background (kis connector status ${pair.id} shows when it last finished)`,
      };
    },
  };
  return actOnPairs(ctx, [ref], prune);
}
