/**
 * Carrying out the steps of groups and sets. Servers refuse to change one while its last change
 * syncs (`SyncInProgressError`), so a step waits for the sync first when the plan saw one running,
 * and once more when the server says so; a create whose namesake is being deleted waits until it
 * is gone. Each name is recorded as created before its create is sent (a lost answer still counts).
 */
import { SyncInProgressError } from '@kis/client';
import { groupUpdateBody, setUpdateBody } from '@kis/rules';
import { idOf, type ScopeRun, type ScopeStep } from './scope-types.js';

type Kind = 'user group' | 'document set';

function waitSynced(run: ScopeRun, kind: Kind, id: number, name: string): Promise<unknown> {
  run.onSyncWait?.(`waiting for ${kind} "${name}" to finish syncing its last change`);
  const options = { ...run.request, waitMs: run.syncWaitMs };
  return kind === 'user group'
    ? run.kis.userGroups.waitUntilSynced(id, options)
    : run.kis.documentSets.waitUntilSynced(id, options);
}

function waitGone(run: ScopeRun, kind: Kind, id: number, name: string): Promise<void> {
  run.onSyncWait?.(`waiting for the deletion of ${kind} ${id} "${name}" to finish`);
  const options = { ...run.request, waitMs: run.syncWaitMs };
  return kind === 'user group'
    ? run.kis.userGroups.waitUntilGone(id, options)
    : run.kis.documentSets.waitUntilGone(id, options);
}

/** `change()` after the object's sync (when one runs), again once if the server says it syncs. */
async function whenSynced<T>(
  run: ScopeRun,
  kind: Kind,
  listed: { id: number; name: string; is_up_to_date: boolean },
  change: () => Promise<T>,
): Promise<T> {
  if (!listed.is_up_to_date) await waitSynced(run, kind, listed.id, listed.name);
  try {
    return await change();
  } catch (error) {
    if (!SyncInProgressError.isInstance(error)) throw error;
    await waitSynced(run, kind, listed.id, listed.name);
    return change();
  }
}

/** Carries out one step of a group or set; resolves with its id. */
export async function carryOutScope(run: ScopeRun, step: ScopeStep): Promise<number> {
  const { kis, request } = run;
  switch (step.type) {
    case 'group-create': {
      if (step.afterDeletionOf !== undefined) {
        await waitGone(run, 'user group', step.afterDeletionOf, step.name);
      }
      await run.created.add('user_group', step.name);
      const body = { name: step.name, user_ids: step.userIds, cc_pair_ids: step.pairIds };
      return (await kis.userGroups.create(body, request)).id;
    }
    case 'group-update': {
      const { listed } = step;
      const body = groupUpdateBody(listed, { user_ids: step.userIds, cc_pair_ids: step.pairIds });
      await whenSynced(run, 'user group', listed, () =>
        kis.userGroups.update(listed.id, body, request),
      );
      return listed.id;
    }
    case 'group-delete': {
      const { listed } = step;
      await whenSynced(run, 'user group', listed, () => kis.userGroups.delete(listed.id, request));
      await run.created.delete('user_group', listed.name);
      return listed.id;
    }
    case 'set-create': {
      if (step.afterDeletionOf !== undefined) {
        await waitGone(run, 'document set', step.afterDeletionOf, step.name);
      }
      await run.created.add('document_set', step.name);
      const body = {
        name: step.name,
        description: step.description,
        cc_pair_ids: step.pairs.map(idOf),
        is_public: step.isPublic,
        users: step.users,
        groups: step.groups.map(idOf),
      };
      return kis.documentSets.create(body, request);
    }
    case 'set-update': {
      const { listed } = step;
      const body = setUpdateBody(listed, {
        description: step.description,
        cc_pair_ids: step.pairs.map(idOf),
        is_public: step.isPublic,
        users: step.users,
        groups: step.groups.map(idOf),
      });
      await whenSynced(run, 'document set', listed, () => kis.documentSets.update(body, request));
      return listed.id;
    }
    case 'set-delete': {
      const { listed } = step;
      await whenSynced(run, 'document set', listed, () =>
        kis.documentSets.delete(listed.id, request),
      );
      await run.created.delete('document_set', listed.name);
      return listed.id;
    }
  }
}
