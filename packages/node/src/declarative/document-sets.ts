/**
 * The document sets of a desired state against the server's, by name. A set entry is whole: its
 * pairs, whether it is public (default: when it names no group and no user), its groups and users
 * (default none); its description left out is kept. Changes are full replaces (`setUpdateBody` of
 * the rule book); sets kis did not create are never deleted (`CreatedRecords`).
 */
import type { DocumentSetSummary } from '@kis/client';
import { setBeingDeleted } from '@kis/rules';
import type { ScopeRefs } from './scope-refs.js';
import type { IdRef, ScopeHost } from './scope-types.js';
import type { DesiredDocumentSet, FieldChange, PlannedDocumentSet } from './types.js';

const unique = <T>(items: readonly T[]): T[] => [...new Set(items)];

/** True when the references are the listed ids (a reference to something not made yet is not). */
function sameIds(refs: readonly IdRef[], ids: readonly number[]): boolean {
  const known = refs.map((r) => (typeof r === 'number' ? r : r.id));
  return known.length === ids.length && known.every((id) => id !== null && ids.includes(id));
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/** What a set entry asks for, its references resolved. */
interface Wanted {
  pairs: IdRef[];
  groups: IdRef[];
  users: string[];
  isPublic: boolean;
}

function wantedOf(d: DesiredDocumentSet, label: string, refs: ScopeRefs): Wanted {
  const pairs = unique(d.pairs.flatMap((ref, j) => refs.pair(label, `pairs[${j}]`, ref) ?? []));
  const groups = unique(
    (d.groups ?? []).flatMap((ref, j) => refs.group(label, `groups[${j}]`, ref) ?? []),
  );
  const users = unique(
    (d.users ?? []).flatMap((u, j) => refs.account(label, `users[${j}]`, u) ?? []),
  );
  const isPublic = d.public ?? (groups.length === 0 && users.length === 0);
  return { pairs, groups, users, isPublic };
}

/** The fields of a listed set that differ from what the entry wants. */
function differences(
  d: DesiredDocumentSet,
  w: Wanted,
  set: DocumentSetSummary,
  refs: ScopeRefs,
): FieldChange[] {
  const changes: FieldChange[] = [];
  if (d.description !== undefined && d.description !== (set.description ?? '')) {
    changes.push({ field: 'description', before: set.description ?? '', after: d.description });
  }
  const pairIds = set.cc_pair_summaries.map((p) => p.id);
  if (!sameIds(w.pairs, pairIds)) {
    changes.push({
      field: 'pairs',
      before: set.cc_pair_summaries.map((p) => p.name ?? `pair ${p.id}`),
      after: w.pairs.map((p) => refs.pairName(p)),
    });
  }
  if (w.isPublic !== set.is_public) {
    changes.push({ field: 'public', before: set.is_public, after: w.isPublic });
  }
  if (!sameIds(w.groups, set.groups)) {
    changes.push({
      field: 'groups',
      before: set.groups.map((g) => refs.groupName(g)),
      after: w.groups.map((g) => refs.groupName(g)),
    });
  }
  if (!sameSet(w.users, set.users)) {
    changes.push({
      field: 'users',
      before: set.users.map((u) => refs.shown(u)),
      after: w.users.map((u) => refs.shown(u)),
    });
  }
  return changes;
}

/**
 * Plans the file's sets (create, update, unchanged) and the sets kis created that the file no
 * longer has (deleted with `prune`, else reported), each after the groups and pairs it names.
 */
export async function planDocumentSets(
  host: ScopeHost,
  desired: readonly DesiredDocumentSet[],
  listed: readonly DocumentSetSummary[],
  refs: ScopeRefs,
  declared: boolean,
): Promise<void> {
  const live = listed.filter((s) => !setBeingDeleted(s));
  const claimed = new Set<number>();
  for (const [i, d] of desired.entries()) {
    const label = `document_sets[${i}] "${d.name}"`;
    const w = wantedOf(d, label, refs);
    const match = live.find((s) => s.name === d.name);
    const base = { kind: 'document_set' as const, name: d.name };
    if (match === undefined) {
      const dying = listed.find((s) => s.name === d.name && setBeingDeleted(s));
      const change: PlannedDocumentSet = {
        ...base,
        action: 'create',
        id: null,
        changes: [
          { field: 'pairs', after: w.pairs.map((p) => refs.pairName(p)) },
          { field: 'public', after: w.isPublic },
          ...(w.groups.length > 0
            ? [{ field: 'groups', after: w.groups.map((g) => refs.groupName(g)) }]
            : []),
          ...(w.users.length > 0
            ? [{ field: 'users', after: w.users.map((u) => refs.shown(u)) }]
            : []),
        ],
        ...(dying === undefined ? {} : { note: 'after the deletion of its namesake finishes' }),
      };
      host.add(change, {
        type: 'set-create',
        name: d.name,
        description: d.description ?? '',
        pairs: w.pairs,
        isPublic: w.isPublic,
        groups: w.groups,
        users: w.users,
        afterDeletionOf: dying?.id,
      });
      continue;
    }
    claimed.add(match.id);
    const changes = differences(d, w, match, refs);
    const change: PlannedDocumentSet = {
      ...base,
      action: changes.length > 0 ? 'update' : 'unchanged',
      id: match.id,
      changes,
    };
    host.add(
      change,
      changes.length > 0
        ? {
            type: 'set-update',
            listed: match,
            description: d.description,
            pairs: w.pairs,
            isPublic: w.isPublic,
            groups: w.groups,
            users: w.users,
          }
        : undefined,
    );
  }
  for (const s of live) {
    if (claimed.has(s.id)) continue;
    const ours = await host.created.has('document_set', s.name);
    const base = { kind: 'document_set' as const, name: s.name, id: s.id, changes: [] };
    if (ours && host.prune) {
      host.add(
        { ...base, action: 'delete', note: 'kis created it; the file no longer has it' },
        { type: 'set-delete', listed: s },
      );
    } else if (ours || declared) {
      const note = ours
        ? 'not in the file; kis created it, so --prune deletes it'
        : 'not in the file; kis did not create it, so --prune leaves it';
      host.add({ ...base, action: 'keep', note });
    }
  }
}
