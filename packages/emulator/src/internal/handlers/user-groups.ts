// User groups (`ee/.../server/user_group/api.py`, `ee/.../db/user_group.py`): who may list and
// change which group is the rule book's (`groupListed`, `groupWriteRefusal`,
// `groupChangeRefusal`); a store `ValueError` (unknown group or members, a group that is syncing)
// is 404 on update, add-users and delete, a rename while syncing 409. A change of pairs, a rename
// and a delete leave the group not up to date until its sync; members count at once. Editions
// are checked before (access.ts: 404 without the enterprise edition, 402 below Business).
import {
  DOCUMENT_SET_ANSWERS,
  DOCUMENT_SET_TEXTS,
  type GroupFacts,
  groupChangeRefusal,
  groupListed,
  groupNotFoundText,
  groupWriteRefusal,
  PERMISSIONS,
  pairNotOwnedByGroupsText,
  pairsNotFoundText,
  pairsNotOwnedByGroups,
  USER_GROUP_ANSWERS,
  USER_GROUP_TEXTS,
  usersNotFoundText,
} from '@kis/rules';
import type { Caller } from '../access.js';
import { AnswerError } from '../errors.js';
import { groupView } from '../group-views.js';
import { type Handlers, ruleBookResult } from '../op-types.js';
import type { GroupRecord } from '../store/groups.js';
import { actorOf, known, scopedPair } from './actors.js';
import type { HandlerContext } from './context.js';

type Change = Parameters<typeof groupChangeRefusal>[2];

export function userGroupHandlers(
  ctx: HandlerContext,
): Pick<
  Handlers,
  | 'listUserGroups'
  | 'createUserGroup'
  | 'updateUserGroup'
  | 'addUserGroupUsers'
  | 'renameUserGroup'
  | 'updateUserGroupDocumentSets'
  | 'deleteUserGroup'
  | 'setUserGroupManager'
  | 'setUserGroupCurator'
> {
  const { store, kind, behaviour } = ctx;
  const now = () => ctx.now().toISOString();
  const view = (group: GroupRecord) => groupView(store, kind, behaviour, group);
  const notFound = (text: string) => new AnswerError(USER_GROUP_ANSWERS.notFound(kind, text));
  const facts = (group: GroupRecord): GroupFacts => ({
    id: group.id,
    // the main line guards its seeded groups; release 4.6.1 does not
    is_default: kind !== 'v4.6.1' && group.is_default,
  });
  const actor = (caller: Caller | undefined) =>
    actorOf(ctx, known(caller), PERMISSIONS.manageUserGroups);

  /** The group the caller may change, not syncing (404 otherwise, as a store `ValueError`). */
  const changeable = (id: number, caller: Caller | undefined): GroupRecord => {
    const group = store.groups.get(id);
    if (group === undefined) throw notFound(groupNotFoundText(id));
    const refused = groupWriteRefusal(actor(caller), facts(group));
    if (refused !== undefined) throw new AnswerError(refused);
    if (!group.is_up_to_date) throw notFound(USER_GROUP_TEXTS.syncing);
    return group;
  };

  const checkUsers = (ids: readonly string[], fail: (text: string) => AnswerError) => {
    const unknown = store.accounts.unknown(ids);
    if (unknown.length > 0) throw fail(usersNotFoundText(unknown));
  };

  const pairsOf = (ids: readonly number[], fail: (text: string) => AnswerError) => {
    const pairs = ids.flatMap((id) => store.pairs.get(id) ?? []);
    if (pairs.length !== ids.length) {
      throw fail(pairsNotFoundText(ids.filter((id) => store.pairs.get(id) === undefined)));
    }
    return pairs;
  };

  const checkChange = (caller: Caller | undefined, group: GroupRecord, change: Change) => {
    const refused = groupChangeRefusal(actor(caller), facts(group), change);
    if (refused !== undefined) throw new AnswerError(refused);
  };

  return {
    listUserGroups({ params, caller }) {
      const reader = actorOf(ctx, known(caller), PERMISSIONS.readUserGroups);
      const includeDefault = kind === 'v4.6.1' || (params.include_default ?? false);
      const body = store.groups
        .list()
        .filter((g) => groupListed(reader, facts(g), includeDefault))
        .map((g) => {
          const item = view(g);
          if (kind === 'main') {
            item.permissions = {
              edit: groupWriteRefusal(actor(caller), facts(g)) === undefined,
              delete: actor(caller).global && !facts(g).is_default,
            };
          }
          return item;
        });
      return { status: 200, body };
    },

    createUserGroup({ body }) {
      const valueError = (text: string) => new AnswerError(USER_GROUP_ANSWERS.valueError(text));
      if (store.groups.byName(body.name) !== undefined) {
        throw new AnswerError(USER_GROUP_ANSWERS.duplicate(kind, body.name));
      }
      checkUsers(body.user_ids, valueError);
      const pairs = pairsOf([...new Set(body.cc_pair_ids)], valueError);
      const id = store.transaction(() => {
        const made = store.groups.create(body.name, now());
        store.memberships.replace(made, [...new Set(body.user_ids)]);
        store.groupPairs.replace(
          made,
          pairs.map((p) => p.id),
        );
        return made;
      });
      ctx.tasks.poke(); // its sync
      const group = store.groups.get(id);
      if (group === undefined) throw new Error(`group ${id} was not stored`);
      return { status: 200, body: view(group) };
    },

    updateUserGroup({ params, body, caller }) {
      const group = changeable(params.user_group_id, caller);
      const userIds = [...new Set(body.user_ids)];
      checkUsers(userIds, notFound);
      const pairs = pairsOf([...new Set(body.cc_pair_ids)], notFound);
      checkChange(caller, group, {
        user_ids: userIds,
        cc_pairs: pairs.map(scopedPair),
        grants: group.grants,
      });
      const before = store.groupPairs.ofGroup(group.id).current;
      const after = pairs.map((p) => p.id);
      const pairsChanged =
        before.length !== after.length || !after.every((id) => before.includes(id));
      store.transaction(() => {
        store.memberships.replace(group.id, userIds);
        if (pairsChanged) {
          store.groupPairs.replace(group.id, after);
          store.groups.markSyncing(group.id, now());
        }
      });
      ctx.tasks.poke();
      return { status: 200, body: view(store.groups.get(group.id) ?? group) };
    },

    addUserGroupUsers({ params, body, caller }) {
      const group = changeable(params.user_group_id, caller);
      const added = [...new Set(body.user_ids)];
      checkUsers(added, notFound);
      const members = store.memberships.ofGroup(group.id).map((m) => m.user_id);
      checkChange(caller, group, { user_ids: [...members, ...added], grants: group.grants });
      store.memberships.add(group.id, added);
      return { status: 200, body: view(group) };
    },

    renameUserGroup({ body, caller }) {
      const group = store.groups.get(body.id);
      if (group === undefined) throw notFound(groupNotFoundText(body.id));
      const refused = groupWriteRefusal(actor(caller), facts(group));
      if (refused !== undefined) throw new AnswerError(refused);
      if (facts(group).is_default) {
        throw new AnswerError(USER_GROUP_ANSWERS.conflict(kind, USER_GROUP_TEXTS.defaultRename));
      }
      if (!group.is_up_to_date) {
        throw new AnswerError(USER_GROUP_ANSWERS.conflict(kind, USER_GROUP_TEXTS.renameSyncing));
      }
      const holder = store.groups.byName(body.name);
      if (holder !== undefined && holder.id !== group.id) {
        throw new AnswerError(USER_GROUP_ANSWERS.duplicate(kind, body.name));
      }
      store.transaction(() => {
        store.groups.rename(group.id, body.name);
        store.groups.markSyncing(group.id, now());
      });
      ctx.tasks.poke();
      return { status: 200, body: view(store.groups.get(group.id) ?? group) };
    },

    updateUserGroupDocumentSets({ params, body, caller }) {
      const group = store.groups.get(params.user_group_id);
      if (group === undefined) throw notFound(groupNotFoundText(params.user_group_id));
      const refused = groupWriteRefusal(actor(caller), facts(group));
      if (refused !== undefined) throw new AnswerError(refused);
      const invalid = (text: string) =>
        new AnswerError(USER_GROUP_ANSWERS.invalidInput(kind, text));
      const added = [...new Set(body.added_document_set_ids)];
      const removed = [...new Set(body.removed_document_set_ids)];
      if (added.some((id) => removed.includes(id))) throw invalid(USER_GROUP_TEXTS.addedAndRemoved);
      for (const id of [...added, ...removed]) {
        const set = store.documentSets.get(id);
        if (set === undefined) throw new AnswerError(DOCUMENT_SET_ANSWERS.notFound(kind, id));
        if (!set.is_up_to_date) throw invalid(DOCUMENT_SET_TEXTS.syncing.update);
        if (!added.includes(id)) continue;
        const pairs = set.cc_pair_ids.flatMap((p) => store.pairs.get(p) ?? []).map(scopedPair);
        const bad = pairsNotOwnedByGroups({ is_public: set.is_public, groups: [group.id] }, pairs);
        if (bad !== undefined) throw invalid(pairNotOwnedByGroupsText(bad));
      }
      store.transaction(() => {
        for (const id of added) store.documentSets.setGroup(id, group.id, true);
        for (const id of removed) store.documentSets.setGroup(id, group.id, false);
      });
      ctx.tasks.poke();
      return ruleBookResult<'updateUserGroupDocumentSets'>(USER_GROUP_ANSWERS.done());
    },

    deleteUserGroup({ params }) {
      const group = store.groups.get(params.user_group_id);
      if (group === undefined) throw notFound(groupNotFoundText(params.user_group_id));
      if (facts(group).is_default) {
        throw new AnswerError(USER_GROUP_ANSWERS.conflict(kind, USER_GROUP_TEXTS.defaultDelete));
      }
      if (!group.is_up_to_date) throw notFound(USER_GROUP_TEXTS.syncing);
      store.groups.markForDeletion(group.id, now());
      ctx.tasks.poke();
      return ruleBookResult<'deleteUserGroup'>(USER_GROUP_ANSWERS.done());
    },

    setUserGroupManager({ params, body, caller }) {
      const group = changeable(params.user_group_id, caller);
      if (!store.memberships.setManager(group.id, body.user_id, body.is_manager)) {
        throw notFound(usersNotFoundText([body.user_id]));
      }
      return ruleBookResult<'setUserGroupManager'>(USER_GROUP_ANSWERS.done());
    },

    setUserGroupCurator({ params, body, caller }) {
      const group = changeable(params.user_group_id, caller);
      if (!store.memberships.setManager(group.id, body.user_id, body.is_curator)) {
        throw notFound(usersNotFoundText([body.user_id]));
      }
      return ruleBookResult<'setUserGroupCurator'>(USER_GROUP_ANSWERS.done());
    },
  };
}
