// What the pair handlers share: a pair by id or the answer its operation gives an unknown one
// (the rule book's, per kind of server), its connector and credential as answers show them, and
// what the caller may do with it.
import { grants, LIFECYCLE_ANSWERS, type PairOperation, PERMISSIONS } from '@kis/rules';
import type { Caller } from '../access.js';
import { AnswerError } from '../errors.js';
import type { Schemas } from '../op-types.js';
import { ccPairView, type PairRights } from '../pair-views.js';
import type { PairRecord } from '../store/pairs.js';
import { credentialView } from '../views.js';
import { connectorOf } from './connectors.js';
import type { HandlerContext } from './context.js';

/** The pair, or the answer `operation` gives an unknown one on this kind of server. */
export function knownPair(ctx: HandlerContext, operation: PairOperation, id: number): PairRecord {
  const pair = ctx.store.pairs.get(id);
  if (pair === undefined) {
    throw new AnswerError(LIFECYCLE_ANSWERS.unknownPair(ctx.kind, operation, id));
  }
  return pair;
}

/** A pair's connector and credential as answers show them (the credential masked). */
export function pairParts(
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

/**
 * What the caller may do with pairs. The emulator's keys reach every pair or none (it has no
 * group managers), so this does not depend on the pair: on the main line, a key holding
 * `manage:connectors` may edit, delete and publish; the other kinds send no `permissions` map,
 * and whoever passed their check may edit.
 */
export function pairRights(ctx: HandlerContext, caller: Caller | undefined): PairRights {
  if (ctx.kind !== 'main') return { editable: caller !== undefined, permissions: undefined };
  const manage = caller !== undefined && grants(caller.permissions, PERMISSIONS.manageConnectors);
  return { editable: manage, permissions: { edit: manage, delete: manage, publish: manage } };
}

/** One pair with its state, as `getCcPair` answers it. */
export function pairDetail(
  ctx: HandlerContext,
  pair: PairRecord,
  caller: Caller | undefined,
): Schemas['CcPairFullInfo'] {
  return ccPairView({
    pair,
    ...pairParts(ctx, pair),
    documents: ctx.store.pairs.documentCount(pair.id),
    attempts: ctx.store.indexAttempts.summaryOfPair(pair.id),
    rights: pairRights(ctx, caller),
    now: ctx.now(),
  });
}
