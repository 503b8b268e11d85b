/**
 * The user groups and document sets of `kis export`, by name as `kis apply` takes them: groups
 * with their members' e-mails, each exported pair's groups by name, sets with their pairs by the
 * name of the exported connector (else the pair's id). A server without user groups (community
 * edition, a plan below Business) exports no group, and says so.
 */
import {
  type ConnectorStatus,
  type DocumentSetSummary,
  FeatureUnavailableError,
  type KisClient,
  type UserGroup,
} from '@kis/client';
import type { DesiredDocumentSet, DesiredUserGroup } from '@kis/node';
import { setBeingDeleted } from '@kis/rules';

/** The server's groups (undefined without them) and sets, with what was left out. */
export interface ScopeExport {
  groups: UserGroup[] | undefined;
  sets: DocumentSetSummary[];
  notes: string[];
}

export async function readScopeExport(client: KisClient): Promise<ScopeExport> {
  const notes: string[] = [];
  const [groups, sets] = await Promise.all([
    client.userGroups.list({ includeDefault: true }).catch((error: unknown) => {
      if (!FeatureUnavailableError.isInstance(error)) throw error;
      notes.push(`user groups are left out: ${error.message.split('\n')[0]}`);
      return undefined;
    }),
    client.documentSets.list(),
  ]);
  return { groups, sets, notes };
}

/** A pair's groups by name; undefined when the server has no groups (they are left out). */
export function pairGroups(pair: ConnectorStatus, scope: ScopeExport): string[] | undefined {
  if (scope.groups === undefined || (pair.groups ?? []).length === 0) return undefined;
  return (pair.groups ?? []).map(
    (id) => scope.groups?.find((g) => g.id === id)?.name ?? `group ${id}`,
  );
}

/** The groups a file holds: not the seeded ones, not those being deleted. */
export function exportGroups(scope: ScopeExport): DesiredUserGroup[] {
  return (scope.groups ?? [])
    .filter((g) => !g.is_default && !g.is_up_for_deletion)
    .map((g) => ({ name: g.name, users: g.users.map((u) => u.email) }));
}

/**
 * The sets a file holds (not those being deleted). `pairNames` maps an exported pair's id to the
 * name its connector has in the file (a name that fits one entry); other pairs go by id.
 */
export function exportSets(
  scope: ScopeExport,
  pairNames: ReadonlyMap<number, string>,
): DesiredDocumentSet[] {
  const groupName = (id: number) => scope.groups?.find((g) => g.id === id)?.name ?? id;
  return scope.sets
    .filter((s) => !setBeingDeleted(s))
    .map((s) => {
      if ((s.federated_connector_summaries ?? []).length > 0) {
        scope.notes.push(
          `document set "${s.name}" has federated connectors, which a file does not hold: kis apply keeps them`,
        );
      }
      const entry: DesiredDocumentSet = {
        name: s.name,
        pairs: s.cc_pair_summaries.map((p) => pairNames.get(p.id) ?? p.id),
      };
      if (s.description) entry.description = s.description;
      if (s.groups.length > 0) entry.groups = s.groups.map(groupName);
      if (s.users.length > 0) entry.users = [...s.users];
      // written only when it differs from what the file would assume
      if (s.is_public !== (s.groups.length === 0 && s.users.length === 0)) {
        entry.public = s.is_public;
      }
      return entry;
    });
}
