// Document sets (`server/features/document_set/api.py`, `db/document_set.py:335-593`): who may
// write which set is the rule book's (`setWriteRefusal`, `setDeleteRefusal`, `setListed`), then
// the validation (a pair or federated connector, unique names, a non-public set's private pairs
// linked to its groups; the community edition shares with nobody; the main line refuses the
// seeded groups), then the sync: a set being synced refuses updates and deletes. Answers and
// texts are the rule book's, per kind of server.
import {
  DOCUMENT_SET_ANSWERS,
  DOCUMENT_SET_TEXTS,
  defaultGroupShareText,
  duplicateSetNameText,
  groupsGrantAccess,
  PERMISSIONS,
  pairNotOwnedByGroupsText,
  pairsNotOwnedByGroups,
  type SetFacts,
  type SetRequest,
  setDeleteRefusal,
  setListed,
  setPermissions,
  setWriteRefusal,
  unknownSetPairText,
} from '@kis/rules';
import { AnswerError } from '../errors.js';
import { type Handlers, ruleBookResult, type Schemas } from '../op-types.js';
import type { DocumentSetRecord } from '../store/document-sets.js';
import type { PairRecord } from '../store/pairs.js';
import { actorOf, known, scopedPair } from './actors.js';
import type { HandlerContext } from './context.js';

type Creation = Schemas['DocumentSetCreationRequest'];

function factsOf(set: DocumentSetRecord): SetFacts {
  return {
    is_public: set.is_public,
    groups: set.groups,
    users: set.users,
    creator_id: set.creator_id,
  };
}

function requestOf(body: Creation, creatorId: string | null): SetRequest {
  return {
    is_public: body.is_public,
    groups: [...new Set(body.groups ?? [])],
    users: [...new Set(body.users ?? [])],
    creator_id: creatorId,
    cc_pair_ids: [...new Set(body.cc_pair_ids)],
    federated_connector_ids: (body.federated_connectors ?? []).map((f) => f.federated_connector_id),
  };
}

export function documentSetHandlers(
  ctx: HandlerContext,
): Pick<
  Handlers,
  'createDocumentSet' | 'updateDocumentSet' | 'deleteDocumentSet' | 'listDocumentSets'
> {
  const { store, kind } = ctx;
  const invalid = (text: string) => new AnswerError(DOCUMENT_SET_ANSWERS.invalid(kind, text));

  /** The requested pairs; an unknown one is refused. */
  const pairsOf = (ids: readonly number[]): PairRecord[] =>
    ids.map((id) => {
      const pair = store.pairs.get(id);
      if (pair === undefined) throw invalid(unknownSetPairText(id));
      return pair;
    });

  /** The validation both lines make, create and update alike (`document_set.py:335-512`). */
  const validate = (request: SetRequest, pairs: PairRecord[], name: string, id?: number) => {
    if (request.federated_connector_ids.length > 0) {
      throw invalid(DOCUMENT_SET_TEXTS.unknownFederatedConnector);
    }
    if (
      !groupsGrantAccess(ctx.edition) &&
      (request.users.length > 0 || request.groups.length > 0)
    ) {
      throw invalid(DOCUMENT_SET_TEXTS.privateNeedsEnterprise);
    }
    if (kind === 'main') {
      const seeded = store.groups.byIds(request.groups).filter((g) => g.is_default);
      if (seeded.length > 0) throw invalid(defaultGroupShareText(seeded.map((g) => g.name)));
    }
    const bad = pairsNotOwnedByGroups(request, pairs.map(scopedPair));
    if (bad !== undefined) throw invalid(pairNotOwnedByGroupsText(bad));
    const holder = store.documentSets.idByName(name);
    if (holder !== undefined && holder !== id) throw invalid(duplicateSetNameText(name));
  };

  const known404 = (id: number): DocumentSetRecord => {
    const set = store.documentSets.get(id);
    if (set === undefined) throw new AnswerError(DOCUMENT_SET_ANSWERS.notFound(kind, id));
    return set;
  };

  return {
    createDocumentSet({ body, caller }) {
      const actor = actorOf(ctx, known(caller), PERMISSIONS.manageDocumentSets);
      const request = requestOf(body, actor.userId);
      const pairs = pairsOf(request.cc_pair_ids);
      const refused = setWriteRefusal(actor, undefined, request, pairs.map(scopedPair));
      if (refused !== undefined) throw new AnswerError(refused);
      if (request.cc_pair_ids.length === 0 && request.federated_connector_ids.length === 0) {
        throw invalid(DOCUMENT_SET_TEXTS.noConnectors.create);
      }
      validate(request, pairs, body.name);
      const id = store.documentSets.create(
        { ...request, name: body.name, description: body.description },
        actor.userId,
      );
      ctx.tasks.poke(); // its sync
      return ruleBookResult<'createDocumentSet'>(DOCUMENT_SET_ANSWERS.created(id));
    },

    updateDocumentSet({ body, caller }) {
      const before = known404(body.id);
      const actor = actorOf(ctx, known(caller), PERMISSIONS.manageDocumentSets);
      const request = requestOf(body, before.creator_id);
      const pairs = pairsOf(request.cc_pair_ids);
      const refused = setWriteRefusal(actor, factsOf(before), request, pairs.map(scopedPair));
      if (refused !== undefined) throw new AnswerError(refused);
      if (request.cc_pair_ids.length === 0 && request.federated_connector_ids.length === 0) {
        throw invalid(DOCUMENT_SET_TEXTS.noConnectors.update);
      }
      if (!before.is_up_to_date) throw invalid(DOCUMENT_SET_TEXTS.syncing.update);
      validate(request, pairs, body.name, body.id);
      store.documentSets.replace(body.id, {
        ...request,
        name: body.name,
        description: body.description,
      });
      ctx.tasks.poke();
      return ruleBookResult<'updateDocumentSet'>(DOCUMENT_SET_ANSWERS.done());
    },

    deleteDocumentSet({ params, caller }) {
      const set = known404(params.document_set_id);
      const actor = actorOf(ctx, known(caller), PERMISSIONS.manageDocumentSets);
      const refused = setDeleteRefusal(actor, factsOf(set));
      if (refused !== undefined) throw new AnswerError(refused);
      if (!set.is_up_to_date) throw invalid(DOCUMENT_SET_TEXTS.syncing.delete);
      store.documentSets.markDeleting(set.id);
      ctx.tasks.poke();
      return ruleBookResult<'deleteDocumentSet'>(DOCUMENT_SET_ANSWERS.done());
    },

    listDocumentSets({ params, caller }) {
      const who = known(caller);
      const actor = actorOf(ctx, who, PERMISSIONS.manageDocumentSets);
      const reader = {
        actor,
        readsAll: actorOf(ctx, who, PERMISSIONS.readDocumentSets).global,
        memberGroupIds: store.memberships.ofUser(actor.userId).map((m) => m.group_id),
      };
      const editable = params.get_editable ?? false;
      const body = store.documentSets
        .list()
        .filter((set) => setListed(reader, factsOf(set), editable))
        .map((set) => {
          const summaries = set.cc_pair_ids.flatMap((id) => {
            const pair = store.pairs.get(id);
            const source =
              pair === undefined ? undefined : store.connectors.get(pair.connector_id)?.source;
            return pair === undefined
              ? []
              : [
                  {
                    id: pair.id,
                    name: pair.name,
                    source: source ?? '',
                    access_type: pair.access_type,
                  },
                ];
          });
          const summary: Schemas['DocumentSetSummary'] = {
            id: set.id,
            name: set.name,
            description: set.description,
            cc_pair_summaries: summaries,
            is_up_to_date: set.is_up_to_date,
            is_public: set.is_public,
            users: set.users,
            groups: set.groups,
            federated_connector_summaries: [],
          };
          if (kind === 'main') summary.permissions = setPermissions(actor, factsOf(set));
          return summary;
        });
      return { status: 200, body };
    },
  };
}
