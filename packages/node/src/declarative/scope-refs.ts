/**
 * Names in the desired state turned into ids (or the planned changes that make them): a pair by
 * the names it answers to (`pairNames` of the rule book: its connector's, its own), first among
 * the file's connectors then the server's pairs (an id as given); a user group by name, the
 * file's or the server's; an account by id, or by the e-mail a listed group shows. What fits
 * nothing, or a pair name that fits several, is a problem of the desired state.
 */
import type { ConnectorStatus, DesiredStateIssue, UserGroup } from '@kis/client';
import { pairNames } from '@kis/rules';
import type { FilePair, IdRef } from './scope-types.js';
import type { PlannedUserGroup } from './types.js';

const quoted = (names: readonly string[]) => names.map((n) => JSON.stringify(n)).join(', ');

export class ScopeRefs {
  readonly issues: DesiredStateIssue[] = [];
  /** The file's groups by name (their planned change). */
  readonly fileGroups = new Map<string, PlannedUserGroup>();
  /** Every account a listed group shows: id → e-mail. */
  readonly accounts = new Map<string, string>();

  constructor(
    readonly filePairs: readonly FilePair[],
    readonly serverPairs: readonly ConnectorStatus[],
    readonly serverGroups: readonly UserGroup[],
    /** Pairs the plan deletes (`prune`): a set may not name them. */
    readonly deletedPairs: ReadonlySet<number>,
  ) {
    for (const g of serverGroups) for (const u of g.users) this.accounts.set(u.id, u.email);
  }

  problem(entry: string, path: string, message: string): void {
    this.issues.push({ entry, path, message, keyword: 'reference' });
  }

  /** A pair of a set's `pairs`; undefined (a problem recorded) when it fits none or several. */
  pair(entry: string, path: string, ref: string | number): IdRef | undefined {
    const found = this.findPair(entry, path, ref);
    if (typeof found === 'number' && this.deletedPairs.has(found)) {
      this.problem(entry, path, `pair ${found} is not in the file, so --prune deletes it`);
      return undefined;
    }
    return found;
  }

  private findPair(entry: string, path: string, ref: string | number): IdRef | undefined {
    // an id goes as given: deployed servers leave the ingestion pair (1) out of their listing
    if (typeof ref === 'number') return ref;
    const inFile = this.filePairs.filter(
      (f) => f.desired.name === ref || (f.desired.pair_name ?? f.desired.name) === ref,
    );
    if (inFile.length === 1) return inFile[0]?.change;
    if (inFile.length > 1) {
      this.problem(entry, path, `"${ref}" names ${inFile.length} connectors of the file`);
      return undefined;
    }
    const claimed = new Set(this.filePairs.map((f) => f.change.id));
    const onServer = this.serverPairs.filter(
      (p) => !claimed.has(p.cc_pair_id) && pairNames(p).includes(ref),
    );
    if (onServer.length === 1) return onServer[0]?.cc_pair_id;
    if (onServer.length > 1) {
      const ids = onServer.map((p) => p.cc_pair_id).sort((a, b) => a - b);
      this.problem(entry, path, `"${ref}" names ${ids.length} pairs (ids ${ids.join(', ')})`);
      return undefined;
    }
    this.problem(
      entry,
      path,
      `"${ref}" names no connector of the file and no pair of the server (a connector's name, its pair_name, or a pair id)`,
    );
    return undefined;
  }

  /** A group of a connector's or set's `groups`. */
  group(entry: string, path: string, ref: string | number): IdRef | undefined {
    if (typeof ref === 'number') {
      const known = this.serverGroups.some((g) => g.id === ref);
      if (!known) this.problem(entry, path, `user group ${ref} is not on the server`);
      return known ? ref : undefined;
    }
    const planned = this.fileGroups.get(ref);
    if (planned !== undefined) return planned.id ?? planned;
    const listed = this.serverGroups.find((g) => g.name === ref && !g.is_up_for_deletion);
    if (listed !== undefined) return listed.id;
    const names = this.serverGroups.map((g) => g.name);
    this.problem(
      entry,
      path,
      `"${ref}" names no user group of the file or the server${names.length > 0 ? ` (server: ${quoted(names)})` : ''}`,
    );
    return undefined;
  }

  /** An account of a group's `users`: an id, or an e-mail a listed group shows. */
  account(entry: string, path: string, ref: string): string | undefined {
    if (!ref.includes('@')) return ref;
    for (const [id, email] of this.accounts) if (email === ref) return id;
    this.problem(
      entry,
      path,
      `no account with e-mail "${ref}" is in a group this key lists: give the account's id`,
    );
    return undefined;
  }

  /** How plans show a pair: its name (or its connector's), else `pair N`. */
  pairName(ref: IdRef): string {
    if (typeof ref !== 'number') return ref.name;
    const pair = this.serverPairs.find((p) => p.cc_pair_id === ref);
    return pair === undefined ? `pair ${ref}` : (pair.name ?? pair.connector.name);
  }

  /** How plans show a group: its name, else `group N`. */
  groupName(ref: IdRef): string {
    if (typeof ref !== 'number') return ref.name;
    return this.serverGroups.find((g) => g.id === ref)?.name ?? `group ${ref}`;
  }

  /** How plans show an account: its e-mail when a listed group shows it, else its id. */
  shown(id: string): string {
    return this.accounts.get(id) ?? id;
  }
}
