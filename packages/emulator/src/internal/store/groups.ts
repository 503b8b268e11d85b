// User groups (table `user_groups`): on the main line an API key's rights are its groups' grants,
// and on the enterprise edition a pair's groups see its documents. The emulator seeds the two
// groups every server has, `Admin` and `Basic` (default ones; their grants are the rule book's
// `DEFAULT_GROUP_GRANTS`), and `Curators`, a custom group granting `manage:connectors` that the
// `--curator-key` keys join. Groups made through the API grant nothing. A group's sync state
// (`is_up_to_date`, since when, stuck) is the background sync's (tasks/syncs.ts).
import { DEFAULT_GROUP_GRANTS, PERMISSIONS } from '@kis/rules';
import { parseJson } from './json-columns.js';
import type { NoParams, Sqlite } from './sqlite.js';

export const ADMIN_GROUP_ID = 1;
export const BASIC_GROUP_ID = 2;
export const CURATORS_GROUP_ID = 3;

export interface GroupRecord {
  id: number;
  name: string;
  /** The permission tokens the group grants its members. */
  grants: string[];
  /** One of the groups every server seeds. */
  is_default: boolean;
  /** False from a change that reaches documents until the sync is done. */
  is_up_to_date: boolean;
  /** True from a delete until the sync removes the group. */
  is_up_for_deletion: boolean;
  /** When the pending sync was asked for. */
  sync_since: string | null;
  /** A sync held back on purpose (tests): it never ends until released. */
  sync_stuck: boolean;
}

const SEEDED: readonly { id: number; name: string; grants: readonly string[]; def: number }[] = [
  { id: ADMIN_GROUP_ID, name: 'Admin', grants: DEFAULT_GROUP_GRANTS.Admin, def: 1 },
  { id: BASIC_GROUP_ID, name: 'Basic', grants: DEFAULT_GROUP_GRANTS.Basic, def: 1 },
  { id: CURATORS_GROUP_ID, name: 'Curators', grants: [PERMISSIONS.manageConnectors], def: 0 },
];

interface GroupRow {
  id: number;
  name: string;
  grants: string;
  is_default: number;
  is_up_to_date: number;
  is_up_for_deletion: number;
  sync_since: string | null;
  sync_stuck: number;
}

function toGroup(row: GroupRow): GroupRecord {
  return {
    id: row.id,
    name: row.name,
    grants: parseJson<string[]>(row.grants),
    is_default: row.is_default === 1,
    is_up_to_date: row.is_up_to_date === 1,
    is_up_for_deletion: row.is_up_for_deletion === 1,
    sync_since: row.sync_since,
    sync_stuck: row.sync_stuck === 1,
  };
}

type Id = { id: number };

function prepare(db: Sqlite) {
  return {
    seed: db.statement<{ id: number; name: string; grants: string; def: number }>(
      `INSERT OR IGNORE INTO user_groups (id, name, grants, is_default)
       VALUES (@id, @name, @grants, @def)`,
    ),
    insert: db.statement<{ name: string; now: string }>(
      `INSERT INTO user_groups (name, grants, is_up_to_date, sync_since)
       VALUES (@name, '[]', 0, @now)`,
    ),
    list: db.statement<NoParams, GroupRow>('SELECT * FROM user_groups ORDER BY id'),
    rename: db.statement<Id & { name: string }>(
      'UPDATE user_groups SET name = @name WHERE id = @id',
    ),
    syncing: db.statement<Id & { now: string }>(
      'UPDATE user_groups SET is_up_to_date = 0, sync_since = @now WHERE id = @id',
    ),
    forDeletion: db.statement<Id & { now: string }>(
      `UPDATE user_groups SET is_up_to_date = 0, is_up_for_deletion = 1, sync_since = @now
       WHERE id = @id`,
    ),
    synced: db.statement<Id>(
      'UPDATE user_groups SET is_up_to_date = 1, sync_since = NULL WHERE id = @id',
    ),
    stuck: db.statement<Id & { stuck: number }>(
      'UPDATE user_groups SET sync_stuck = @stuck WHERE id = @id',
    ),
    delete: db.statement<Id>('DELETE FROM user_groups WHERE id = @id'),
  };
}

/** The user groups, read once and again after each change (every main-line request reads them). */
export class Groups {
  private readonly stmt: ReturnType<typeof prepare>;
  private cache: GroupRecord[] | undefined;

  constructor(db: Sqlite) {
    this.stmt = prepare(db);
  }

  /** Creates the seeded groups if missing. */
  createDefaults(): void {
    for (const { grants, ...group } of SEEDED) {
      this.stmt.seed.run({ ...group, grants: JSON.stringify(grants) });
    }
    this.cache = undefined;
  }

  list(): GroupRecord[] {
    this.cache ??= this.stmt.list.all().map(toGroup);
    return this.cache.map((g) => ({ ...g, grants: [...g.grants] }));
  }

  get(id: number): GroupRecord | undefined {
    return this.list().find((g) => g.id === id);
  }

  byName(name: string): GroupRecord | undefined {
    return this.list().find((g) => g.name === name);
  }

  /** The groups with these ids, in the order given (unknown ids left out). */
  byIds(ids: readonly number[]): GroupRecord[] {
    const all = new Map(this.list().map((g) => [g.id, g]));
    return ids.flatMap((id) => {
      const group = all.get(id);
      return group === undefined ? [] : [group];
    });
  }

  /** A new group, not up to date until its first sync; its id. */
  create(name: string, now: string): number {
    this.cache = undefined;
    return Number(this.stmt.insert.run({ name, now }).lastInsertRowid);
  }

  rename(id: number, name: string): void {
    this.stmt.rename.run({ id, name });
    this.cache = undefined;
  }

  /** Marks a change that the sync must carry to the documents. */
  markSyncing(id: number, now: string): void {
    this.stmt.syncing.run({ id, now });
    this.cache = undefined;
  }

  markForDeletion(id: number, now: string): void {
    this.stmt.forDeletion.run({ id, now });
    this.cache = undefined;
  }

  markSynced(id: number): void {
    this.stmt.synced.run({ id });
    this.cache = undefined;
  }

  /** Holds the group's sync back (true) or lets it end (false); false when there is no group. */
  setStuck(id: number, stuck: boolean): boolean {
    this.cache = undefined;
    return this.stmt.stuck.run({ id, stuck: stuck ? 1 : 0 }).changes > 0;
  }

  /** Removes the group (its memberships go with it). */
  delete(id: number): void {
    this.stmt.delete.run({ id });
    this.cache = undefined;
  }
}
