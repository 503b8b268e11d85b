/**
 * The server's user groups and document sets, as `plan` reads them: each list only when the
 * desired state names its kind (or a prune may delete what kis created of it), so a file without
 * groups plans against a server without the enterprise edition, whose group routes answer 404.
 */
import type { KisClient, RequestOptions } from '@kis/client';
import type { ScopeState } from './scope-types.js';
import type { CreatedRecords, DesiredState } from './types.js';

/** True when the desired state names user groups anywhere, or accounts by e-mail. */
export function namesGroups(desired: DesiredState): boolean {
  if (desired.user_groups !== undefined) return true;
  if ((desired.connectors ?? []).some((c) => c.groups !== undefined)) return true;
  // accounts by e-mail are found among the members listed groups show
  return (desired.document_sets ?? []).some(
    (s) => (s.groups ?? []).length > 0 || (s.users ?? []).some((u) => u.includes('@')),
  );
}

/** Reads the lists the desired state (and a prune) needs; the others stay undefined. */
export async function readScope(
  kis: KisClient,
  desired: DesiredState,
  prune: boolean,
  created: CreatedRecords,
  request: RequestOptions,
): Promise<ScopeState> {
  const groupsNeeded = namesGroups(desired) || (prune && (await created.any('user_group')));
  const setsNeeded =
    desired.document_sets !== undefined || (prune && (await created.any('document_set')));
  const [groups, sets] = await Promise.all([
    // the seeded groups too: their members are the accounts e-mails resolve to
    groupsNeeded ? kis.userGroups.list({ ...request, includeDefault: true }) : undefined,
    setsNeeded ? kis.documentSets.list(request) : undefined,
  ]);
  return { groups, sets };
}
