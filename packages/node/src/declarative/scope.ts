/**
 * The scoping part of a plan: the user groups, then the document sets (which name groups and
 * pairs), against the lists `scope-state.ts` read, and what the access plan needs from them.
 * Names that fit nothing come back as problems of the desired state.
 */
import type { DesiredStateIssue } from '@kis/client';
import { planDocumentSets } from './document-sets.js';
import { ScopeRefs } from './scope-refs.js';
import type { ScopeHost, ScopeState } from './scope-types.js';
import type { DesiredState } from './types.js';
import { type GroupOutcome, planUserGroups, referencedGroups } from './user-groups.js';

export interface ScopeOutcome {
  issues: DesiredStateIssue[];
  /** Undefined when no group was read. */
  groups: GroupOutcome | undefined;
}

/** Plans groups and sets into `host`; `deletedPairs` are the pairs the plan deletes (prune). */
export async function planScope(
  host: ScopeHost,
  desired: DesiredState,
  state: ScopeState,
  deletedPairs: ReadonlySet<number>,
): Promise<ScopeOutcome> {
  const refs = new ScopeRefs(host.filePairs, host.pairs, state.groups ?? [], deletedPairs);
  const sets = desired.document_sets ?? [];
  const groups =
    state.groups === undefined
      ? undefined
      : await planUserGroups(
          host,
          desired.user_groups ?? [],
          state.groups,
          refs,
          referencedGroups(host, sets),
          desired.user_groups !== undefined,
        );
  if (state.sets !== undefined) {
    await planDocumentSets(host, sets, state.sets, refs, desired.document_sets !== undefined);
  }
  return { issues: refs.issues, groups };
}
