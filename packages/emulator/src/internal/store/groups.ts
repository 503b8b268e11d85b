// User groups (table `user_groups`): on the main line an API key's rights are its groups' grants.
// The emulator seeds the two groups every server has, `Admin` and `Basic` (their grants are the
// rule book's `DEFAULT_GROUP_GRANTS`), and `Curators`, a custom group granting
// `manage:connectors` that the `--curator-key` keys join. Their ids are fixed here.
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
}

const SEEDED: readonly { id: number; name: string; grants: readonly string[] }[] = [
  { id: ADMIN_GROUP_ID, name: 'Admin', grants: DEFAULT_GROUP_GRANTS.Admin },
  { id: BASIC_GROUP_ID, name: 'Basic', grants: DEFAULT_GROUP_GRANTS.Basic },
  { id: CURATORS_GROUP_ID, name: 'Curators', grants: [PERMISSIONS.manageConnectors] },
];

interface GroupRow {
  id: number;
  name: string;
  grants: string;
}

function toGroup(row: GroupRow): GroupRecord {
  return { id: row.id, name: row.name, grants: parseJson<string[]>(row.grants) };
}

function prepare(db: Sqlite) {
  return {
    insert: db.statement<GroupRow>(
      'INSERT OR IGNORE INTO user_groups (id, name, grants) VALUES (@id, @name, @grants)',
    ),
    list: db.statement<NoParams, GroupRow>('SELECT * FROM user_groups ORDER BY id'),
  };
}

/**
 * The user groups. No call changes them, so they are read once: every request of a main-line
 * key reads its groups' grants.
 */
export class Groups {
  private readonly stmt: ReturnType<typeof prepare>;
  private cache: GroupRecord[] | undefined;

  constructor(db: Sqlite) {
    this.stmt = prepare(db);
  }

  /** Creates the seeded groups if missing. */
  createDefaults(): void {
    for (const group of SEEDED) {
      this.stmt.insert.run({ ...group, grants: JSON.stringify(group.grants) });
    }
    this.cache = undefined;
  }

  list(): GroupRecord[] {
    this.cache ??= this.stmt.list.all().map(toGroup);
    return this.cache.map((g) => ({ ...g, grants: [...g.grants] }));
  }

  /** The groups with these ids, in the order given (unknown ids left out). */
  byIds(ids: readonly number[]): GroupRecord[] {
    const all = new Map(this.list().map((g) => [g.id, g]));
    return ids.flatMap((id) => {
      const group = all.get(id);
      return group === undefined ? [] : [group];
    });
  }
}
