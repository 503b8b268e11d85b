/**
 * The user groups of a desired state against the server's, by name. A group's members are its
 * `users` (left out: kept); its pairs follow the connectors that name it in `groups`: a pair the
 * plan creates links at its association (no group update), an existing pair through the group's
 * update, a full replace (`groupUpdateBody` of the rule book), which also keeps pairs the file
 * does not manage. Groups kis did not create are never deleted (`CreatedRecords`).
 */
import type { UserGroup } from '@kis/client';
import type { ScopeRefs } from './scope-refs.js';
import type { IdRef, ScopeHost } from './scope-types.js';
import type {
  DesiredUserGroup,
  MemberAccessChange,
  PlannedPair,
  PlannedUserGroup,
} from './types.js';

/** What the groups' plan tells the access plan. */
export interface GroupOutcome {
  /** The group names of each server pair now, and once the plan is applied. */
  before: Map<number, string[]>;
  after: Map<number, string[]>;
  /** The group names each pair the plan creates is associated with. */
  newPairs: Map<PlannedPair, string[]>;
  members: MemberAccessChange[];
}

const unique = <T>(items: readonly T[]): T[] => [...new Set(items)];
const sameSet = <T>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/** Group references of connectors and sets, raw (names and ids): such groups are never pruned. */
export function referencedGroups(host: ScopeHost, sets: readonly { groups?: unknown }[]) {
  const refs = new Set<string | number>();
  for (const f of host.filePairs) for (const g of f.desired.groups ?? []) refs.add(g);
  for (const s of sets) {
    if (Array.isArray(s.groups)) for (const g of s.groups) refs.add(g);
  }
  return refs;
}

interface Entry {
  desired: DesiredUserGroup;
  label: string;
  match: UserGroup | undefined;
  dying: UserGroup | undefined;
  change: PlannedUserGroup;
}

/** The groups each existing pair of the file wants (connectors that give `groups`), by pair id. */
function wantedGroups(host: ScopeHost, refs: ScopeRefs, newPairs: Map<PlannedPair, string[]>) {
  const wanted = new Map<number, Set<IdRef>>();
  for (const [i, f] of host.filePairs.entries()) {
    if (f.desired.groups === undefined) continue;
    const label = `connectors[${i}] "${f.desired.name}"`;
    const groups = unique(
      f.desired.groups.flatMap((ref, j) => refs.group(label, `groups[${j}]`, ref) ?? []),
    );
    if (f.change.action === 'create') {
      host.linkOnCreate(f.change, groups);
      newPairs.set(
        f.change,
        groups.map((g) => refs.groupName(g)),
      );
    } else if (f.change.id !== null && f.change.action !== 'delete') {
      wanted.set(f.change.id, new Set(groups));
    }
  }
  return wanted;
}

/** The pairs of a group once applied: the current ones, less and plus what the file's pairs want. */
function pairsAfter(current: readonly number[], group: IdRef, wanted: Map<number, Set<IdRef>>) {
  const after = current.filter((id) => !wanted.has(id) || wanted.get(id)?.has(group) === true);
  for (const [pairId, groups] of wanted) {
    if (groups.has(group) && !after.includes(pairId)) after.push(pairId);
  }
  return after.sort((a, b) => a - b);
}

/**
 * Plans the file's groups (create, update, unchanged), the server's groups whose pairs the file's
 * connectors change, and the groups kis created that the file no longer has (deleted with
 * `prune`, else reported).
 */
export async function planUserGroups(
  host: ScopeHost,
  desired: readonly DesiredUserGroup[],
  listed: readonly UserGroup[],
  refs: ScopeRefs,
  referenced: ReadonlySet<string | number>,
  declared: boolean,
): Promise<GroupOutcome> {
  const live = listed.filter((g) => !g.is_up_for_deletion);
  const entries: Entry[] = desired.map((d, i) => {
    const match = live.find((g) => g.name === d.name);
    const change: PlannedUserGroup = {
      kind: 'user_group',
      action: match === undefined ? 'create' : 'unchanged',
      name: d.name,
      id: match?.id ?? null,
      changes: [],
    };
    refs.fileGroups.set(d.name, change);
    const dying = listed.find((g) => g.name === d.name && g.is_up_for_deletion);
    return { desired: d, label: `user_groups[${i}] "${d.name}"`, match, dying, change };
  });
  const newPairs = new Map<PlannedPair, string[]>();
  const wanted = wantedGroups(host, refs, newPairs);
  const outcome: GroupOutcome = { before: new Map(), after: new Map(), newPairs, members: [] };
  const names = (ids: readonly IdRef[]) => ids.map((id) => refs.pairName(id));
  // the pairs the plan creates, associated with the group (by name: group names are unique)
  const linkedOnCreate = (group: IdRef) =>
    [...newPairs]
      .filter(([, groups]) => groups.includes(refs.groupName(group)))
      .map(([pair]) => pair.name);

  for (const e of entries) {
    const users =
      e.desired.users === undefined
        ? undefined
        : unique(e.desired.users.flatMap((u, j) => refs.account(e.label, `users[${j}]`, u) ?? []));
    const current = e.match?.users.map((u) => u.id) ?? [];
    const gains = (users ?? []).filter((u) => !current.includes(u));
    const loses = users === undefined ? [] : current.filter((u) => !users.includes(u));
    const before = (e.match?.cc_pairs.map((p) => p.id) ?? []).sort((a, b) => a - b);
    const after = pairsAfter(before, e.match?.id ?? e.change, wanted);
    const shown = (ids: readonly string[]) => ids.map((u) => refs.shown(u));
    const pairsShown = [...names(after), ...linkedOnCreate(e.change)];
    if (gains.length + loses.length > 0) {
      const change = { group: e.desired.name, pairs: pairsShown };
      outcome.members.push({ ...change, gains: shown(gains), loses: shown(loses) });
    }
    if (e.match === undefined) {
      e.change.changes = [
        { field: 'users', after: shown(users ?? []) },
        { field: 'pairs', after: pairsShown },
      ];
      if (e.dying !== undefined) e.change.note = 'after the deletion of its namesake finishes';
      host.add(e.change, {
        type: 'group-create',
        name: e.desired.name,
        userIds: users ?? [],
        pairIds: after,
        afterDeletionOf: e.dying?.id,
      });
      continue;
    }
    const members = gains.length + loses.length > 0;
    const pairs = !sameSet(before, after);
    e.change.changes = [
      ...(members ? [{ field: 'users', before: shown(current), after: shown(users ?? []) }] : []),
      ...(pairs ? [{ field: 'pairs', before: names(before), after: names(after) }] : []),
    ];
    e.change.action = members || pairs ? 'update' : 'unchanged';
    host.add(
      e.change,
      members || pairs
        ? {
            type: 'group-update',
            listed: e.match,
            userIds: members ? users : undefined,
            pairIds: pairs ? after : undefined,
          }
        : undefined,
    );
  }
  const deleted = await planOthers(host, live, entries, wanted, refs, referenced, declared);
  for (const pair of host.pairs) {
    const id = pair.cc_pair_id;
    const before = (pair.groups ?? []).map((g) => refs.groupName(g));
    const wants = wanted.get(id);
    const after =
      wants === undefined
        ? before.filter((name) => !deleted.has(name))
        : [...wants].map((g) => refs.groupName(g));
    outcome.before.set(id, before);
    outcome.after.set(id, after);
  }
  return outcome;
}

/**
 * The server's groups the file does not have: updated when the file's connectors change their
 * pairs, deleted with `prune` when kis created them and nothing names them, else reported (when
 * the file manages groups). Resolves with the names of the groups deleted.
 */
async function planOthers(
  host: ScopeHost,
  live: readonly UserGroup[],
  entries: readonly Entry[],
  wanted: Map<number, Set<IdRef>>,
  refs: ScopeRefs,
  referenced: ReadonlySet<string | number>,
  declared: boolean,
): Promise<Set<string>> {
  const deleted = new Set<string>();
  const names = (ids: readonly number[]) => ids.map((id) => refs.pairName(id));
  for (const g of live) {
    if (entries.some((e) => e.match === g)) continue;
    const base = { kind: 'user_group' as const, name: g.name, id: g.id, changes: [] };
    const named = g.is_default || referenced.has(g.name) || referenced.has(g.id);
    const ours = !named && (await host.created.has('user_group', g.name));
    if (ours && host.prune) {
      deleted.add(g.name);
      host.add(
        { ...base, action: 'delete', note: 'kis created it; the file no longer has it' },
        { type: 'group-delete', listed: g },
      );
      continue;
    }
    const before = g.cc_pairs.map((p) => p.id).sort((a, b) => a - b);
    const after = pairsAfter(before, g.id, wanted);
    if (!sameSet(before, after)) {
      host.add(
        {
          ...base,
          action: 'update',
          changes: [{ field: 'pairs', before: names(before), after: names(after) }],
          note: 'not in the file: its pairs follow the connectors that name it',
        },
        { type: 'group-update', listed: g, pairIds: after },
      );
    } else if (!named && (ours || declared)) {
      const note = ours
        ? 'not in the file; kis created it, so --prune deletes it'
        : 'not in the file; kis did not create it, so --prune leaves it';
      host.add({ ...base, action: 'keep', note });
    }
  }
  return deleted;
}
