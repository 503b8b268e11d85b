// API keys made with `createApiKey` (tables `api_keys`, `api_key_groups`). A key itself is never
// stored: only its SHA-256 digest, which requests are matched by, and the masked form servers
// show. Each key keeps a role (release 4.6.1's model) and groups (the main line's).
import type { UserRole } from '@kis/rules';
import type { NoParams, Sqlite } from './sqlite.js';

export interface ApiKeyRecord {
  id: number;
  name: string | null;
  /** The masked key (`abcd****wxyz`). */
  display: string;
  role: UserRole;
  /** The uuid of the account the key acts as. */
  user_id: string;
  group_ids: number[];
  time_created: string;
}

export interface ApiKeyWrite {
  digest: string;
  name: string | null;
  display: string;
  role: UserRole;
  user_id: string;
  group_ids: readonly number[];
}

type ApiKeyRow = Omit<ApiKeyRecord, 'group_ids'> & { group_ids: string | null };

const COLUMNS = `k.id, k.name, k.display, k.role, k.user_id, k.time_created,
  (SELECT group_concat(g.group_id) FROM api_key_groups g WHERE g.api_key_id = k.id) AS group_ids`;

function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    ...row,
    group_ids:
      row.group_ids === null
        ? []
        : row.group_ids
            .split(',')
            .map(Number)
            .sort((a, b) => a - b),
  };
}

function prepare(db: Sqlite) {
  return {
    insert: db.statement<Omit<ApiKeyWrite, 'group_ids'> & { now: string }>(
      `INSERT INTO api_keys (digest, name, display, role, user_id, time_created)
       VALUES (@digest, @name, @display, @role, @user_id, @now)`,
    ),
    join: db.statement<{ api_key_id: number; group_id: number }>(
      'INSERT OR IGNORE INTO api_key_groups (api_key_id, group_id) VALUES (@api_key_id, @group_id)',
    ),
    byDigest: db.statement<{ digest: string }, ApiKeyRow>(
      `SELECT ${COLUMNS} FROM api_keys k WHERE k.digest = @digest`,
    ),
    get: db.statement<{ id: number }, ApiKeyRow>(
      `SELECT ${COLUMNS} FROM api_keys k WHERE k.id = @id`,
    ),
    list: db.statement<NoParams, ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys k ORDER BY k.id`),
  };
}

/** The API keys made through the API. */
export class ApiKeys {
  private readonly stmt: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Sqlite,
    private readonly now: () => string,
  ) {
    this.stmt = prepare(db);
  }

  /** Stores a new key with its groups, in one transaction. */
  create(input: ApiKeyWrite): ApiKeyRecord {
    return this.db.transaction(() => {
      const { group_ids: groupIds, ...key } = input;
      const id = Number(this.stmt.insert.run({ ...key, now: this.now() }).lastInsertRowid);
      for (const groupId of groupIds) this.stmt.join.run({ api_key_id: id, group_id: groupId });
      return toApiKey(this.stmt.get.get({ id })!);
    })();
  }

  /** The key whose digest this is, if one was made. */
  byDigest(digest: string): ApiKeyRecord | undefined {
    const row = this.stmt.byDigest.get({ digest });
    return row === undefined ? undefined : toApiKey(row);
  }

  list(): ApiKeyRecord[] {
    return this.stmt.list.all().map(toApiKey);
  }
}
