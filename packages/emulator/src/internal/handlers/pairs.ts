// Connector/credential pairs: the list of pairs with their ids, one pair with its state, renaming,
// pausing and resuming, and the asynchronous deletion of a pair with its documents
// (`createDeletionAttempt`, carried out by `PairDeletions`).
import { ANSWERS } from '@kis/spec/rules';
import { AnswerError, HttpError } from '../errors.js';
import type { Handlers, Schemas } from '../op-types.js';
import type { PairRecord } from '../store/pairs.js';
import { ccPairView, connectorStatusView, credentialView } from '../views.js';
import { connectorOf } from './connectors.js';
import type { HandlerContext } from './context.js';

/** A pair's connector and credential as answers show them (the credential masked). */
function parts(
  ctx: HandlerContext,
  pair: PairRecord,
): { connector: Schemas['Connector']; credential: Schemas['Credential'] } {
  const connector = connectorOf(ctx, pair.connector_id);
  const credential = ctx.store.credentials.get(pair.credential_id);
  // Pairs reference their connector and credential (foreign keys): both exist.
  if (connector === undefined || credential === undefined) {
    throw new Error(`pair ${pair.id} names a connector or credential the store does not have`);
  }
  return { connector, credential: credentialView(credential, ctx.behaviour) };
}

export function pairHandlers(
  ctx: HandlerContext,
): Pick<
  Handlers,
  'listConnectorStatus' | 'getCcPair' | 'renameCcPair' | 'setCcPairStatus' | 'createDeletionAttempt'
> {
  const { store, profile, deletions } = ctx;
  return {
    // Every pair, the default ingestion pair included (clients skip source `ingestion_api`).
    listConnectorStatus() {
      const body = store.pairs.list().map((pair) => {
        const { connector, credential } = parts(ctx, pair);
        return connectorStatusView(pair, connector, credential);
      });
      return { status: 200, body };
    },

    getCcPair({ params }) {
      const pair = store.pairs.get(params.cc_pair_id);
      if (pair === undefined) {
        throw new HttpError(404, 'CC Pair not found for current user permissions');
      }
      const { connector, credential } = parts(ctx, pair);
      return {
        status: 200,
        body: ccPairView(pair, connector, credential, store.pairs.documentCount(pair.id)),
      };
    },

    renameCcPair({ params }) {
      const id = params.cc_pair_id;
      if (!store.pairs.rename(id, params.new_name)) {
        throw new AnswerError(ANSWERS.pairUnknownForUpdate(profile, id, 'name'));
      }
      return {
        status: 200,
        body: { success: true, message: 'Name updated successfully', data: id },
      };
    },

    // Deployed servers take any state; DELETING is picked up by their deletion task as if a
    // deletion attempt had been made, so it starts the deletion here too.
    setCcPairStatus({ params, body }) {
      const id = params.cc_pair_id;
      const pair = store.pairs.get(id);
      if (pair === undefined) {
        throw new AnswerError(ANSWERS.pairUnknownForUpdate(profile, id, 'status'));
      }
      if (body.status === 'DELETING') deletions.start(id);
      else if (pair.status !== 'DELETING') store.pairs.setStatus(id, body.status);
      return { status: 200, body: { message: '200' } };
    },

    // 200 null at once, again while the deletion runs; 404 once the pair is gone.
    createDeletionAttempt({ body }) {
      const { connector_id: connectorId, credential_id: credentialId } = body;
      const pair = store.pairs.find(connectorId, credentialId);
      if (pair === undefined) {
        throw new HttpError(
          404,
          `Connector with ID '${connectorId}' and credential ID '${credentialId}' does not exist. Has it already been deleted?`,
        );
      }
      deletions.start(pair.id);
      return { status: 200, body: null };
    },
  };
}
