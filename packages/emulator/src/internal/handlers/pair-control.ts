// Operating pairs: pause and resume (and, on release 4.6.1 and the seed's kind, any status), run
// once, prune and its time, and the deletion. Each changes the store, then wakes the background
// work that carries it out (`tasks`), as deployed servers answer before their workers act.
import {
  grants,
  LIFECYCLE_ANSWERS,
  nextPairStatus,
  type PairStatus,
  PERMISSIONS,
} from '@kis/rules';
import type { Caller } from '../access.js';
import { AnswerError } from '../errors.js';
import { type Handlers, ruleBookResult, type Schemas } from '../op-types.js';
import type { PairRecord } from '../store/pairs.js';
import { beginDeletion } from '../tasks/deletion.js';
import { requestRun } from '../tasks/indexing.js';
import { beginPrune } from '../tasks/pruning.js';
import type { HandlerContext } from './context.js';
import { knownPair } from './pair-lookup.js';

/** Sets a pair's status: a pause stops its attempts; DELETING deletes it. */
function setStatus(ctx: HandlerContext, pair: PairRecord, status: PairStatus): void {
  const { store } = ctx;
  if (status === 'DELETING') {
    beginDeletion(store, pair.id, ctx.now());
  } else if (status === 'PAUSED') {
    store.transaction(() => {
      store.pairs.setStatus(pair.id, nextPairStatus(pair.status, 'paused'));
      store.indexAttempts.requestCancel(pair.id);
    });
  } else {
    store.pairs.setStatus(
      pair.id,
      status === 'ACTIVE' ? nextPairStatus(pair.status, 'resumed') : status,
    );
  }
  ctx.tasks.poke();
}

/** The pairs run once chooses, or the answer refusing the request. */
function pairsToRun(ctx: HandlerContext, body: Schemas['RunConnectorRequest']): PairRecord[] {
  const { store } = ctx;
  const connectorId = body.connector_id;
  if (store.connectors.get(connectorId) === undefined) {
    throw new AnswerError(LIFECYCLE_ANSWERS.runOnceUnknownConnector(connectorId));
  }
  const attached = store.pairs.credentialIdsOfConnector(connectorId);
  const asked = [...new Set(body.credential_ids ?? [])];
  if (!asked.every((id) => attached.includes(id))) {
    throw new AnswerError(LIFECYCLE_ANSWERS.runOnceCredentialsNotAttached());
  }
  const chosen = asked.length > 0 ? asked : attached;
  if (chosen.length === 0) {
    throw new AnswerError(LIFECYCLE_ANSWERS.runOnceConnectorWithoutPairs());
  }
  return chosen.flatMap((credentialId) => store.pairs.find(connectorId, credentialId) ?? []);
}

/** The main line refuses run once before any trigger when the caller may not change a pair. */
function checkEditable(ctx: HandlerContext, caller: Caller | undefined): void {
  const editable = caller !== undefined && grants(caller.permissions, PERMISSIONS.manageConnectors);
  const refused = editable ? undefined : LIFECYCLE_ANSWERS.runOnceNotEditable(ctx.kind);
  if (refused !== undefined) throw new AnswerError(refused);
}

export function pairControlHandlers(
  ctx: HandlerContext,
): Pick<
  Handlers,
  | 'setCcPairStatus'
  | 'runConnectorOnce'
  | 'pruneCcPair'
  | 'getCcPairLastPruned'
  | 'createDeletionAttempt'
> {
  const { store, kind } = ctx;
  return {
    // The current status is not checked: pausing a paused pair, resuming a deleting one is fine.
    setCcPairStatus({ params, body }) {
      const pair = knownPair(ctx, 'setCcPairStatus', params.cc_pair_id);
      const refused = LIFECYCLE_ANSWERS.statusNotSettable(kind, body.status);
      if (refused !== undefined) throw new AnswerError(refused);
      setStatus(ctx, pair, body.status);
      return ruleBookResult<'setCcPairStatus'>(LIFECYCLE_ANSWERS.statusSet());
    },

    // A pair with an attempt waiting or running is skipped and not counted; a paused one keeps
    // its trigger until it is resumed.
    runConnectorOnce({ body, caller }) {
      const pairs = pairsToRun(ctx, body);
      if (kind === 'main') checkEditable(ctx, caller);
      const fromBeginning = body.from_beginning ?? false;
      const triggered = pairs.filter((pair) => requestRun(ctx, pair.id, fromBeginning)).length;
      ctx.tasks.poke();
      return ruleBookResult<'runConnectorOnce'>(LIFECYCLE_ANSWERS.runOnceTriggered(triggered));
    },

    pruneCcPair({ params }) {
      const pair = knownPair(ctx, 'pruneCcPair', params.cc_pair_id);
      if (pair.pruning_since !== null) throw new AnswerError(LIFECYCLE_ANSWERS.pruneRunning(kind));
      if (pair.status === 'DELETING' || !beginPrune(store, pair.id, ctx.now())) {
        throw new AnswerError(LIFECYCLE_ANSWERS.pruneFailed(kind));
      }
      ctx.tasks.poke();
      return ruleBookResult<'pruneCcPair'>(LIFECYCLE_ANSWERS.pruneStarted());
    },

    getCcPairLastPruned({ params }) {
      const pair = knownPair(ctx, 'getCcPairLastPruned', params.cc_pair_id);
      return { status: 200, body: pair.last_pruned };
    },

    // 200 null at once, again while the deletion runs; 404 once the pair is gone.
    createDeletionAttempt({ body }) {
      const { connector_id: connectorId, credential_id: credentialId } = body;
      const pair = store.pairs.find(connectorId, credentialId);
      if (pair === undefined) {
        throw new AnswerError(LIFECYCLE_ANSWERS.deletionPairGone(kind, connectorId, credentialId));
      }
      beginDeletion(store, pair.id, ctx.now());
      ctx.tasks.poke();
      return ruleBookResult<'createDeletionAttempt'>(LIFECYCLE_ANSWERS.deletionStarted());
    },
  };
}
