// Connector/credential pairs: the list of pairs with their ids, one pair with its state, and
// renaming. The main line leaves its ingestion pair out of the list, and the group links that are
// no longer current (a group update removed them, or the group no longer exists).
import { ANSWERS, DEFAULT_CC_PAIR_ID } from '@kis/rules';
import { AnswerError } from '../errors.js';
import type { Handlers } from '../op-types.js';
import { currentGroupIds, type PairRecord } from '../store/pairs.js';
import { connectorStatusView } from '../views.js';
import type { HandlerContext } from './context.js';
import { knownPair, pairDetail, pairParts } from './pair-lookup.js';

/** The pair's group links `listConnectorStatus` shows on this kind of server. */
function shownGroups(ctx: HandlerContext, pair: PairRecord, existing: Set<number>): number[] {
  if (ctx.kind !== 'main') return pair.groups;
  return currentGroupIds(pair).filter((id) => existing.has(id));
}

export function pairHandlers(
  ctx: HandlerContext,
): Pick<Handlers, 'listConnectorStatus' | 'getCcPair' | 'renameCcPair'> {
  const { store, profile } = ctx;
  return {
    listConnectorStatus() {
      const current = new Set(store.groups.list().map((g) => g.id));
      const body = store.pairs
        .list()
        .filter((pair) => ctx.kind !== 'main' || pair.id !== DEFAULT_CC_PAIR_ID)
        .map((pair) => {
          const { connector, credential } = pairParts(ctx, pair);
          return connectorStatusView(pair, connector, credential, shownGroups(ctx, pair, current));
        });
      return { status: 200, body };
    },

    getCcPair({ params, caller }) {
      const pair = knownPair(ctx, 'getCcPair', params.cc_pair_id);
      return { status: 200, body: pairDetail(ctx, pair, caller) };
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
  };
}
