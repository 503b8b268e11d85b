// Document sets (tables `document_sets`, `document_set_pairs`, `_groups`, `_users`): named sets
// of pairs. A create, update or delete leaves a set not up to date until its sync (tasks/syncs.ts)
// re-stamped its documents; the pairs an update or delete removed keep a link that is no longer
// current until then, and a deleted set stays (no current pair) until the sync removes it.
import type { NoParams, Sqlite } from './sqlite.js';

export interface DocumentSetRecord {
  id: number;
  name: string;
  description: string | null;
  is_public: boolean;
  is_up_to_date: boolean;
  /** A delete was asked for: the sync removes the set. */
  is_deleting: boolean;
  creator_id: string | null;
  sync_since: string | null;
  sync_stuck: boolean;
  /** Pairs of current links. */
  cc_pair_ids: number[];
  /** Pairs of links an update or delete removed, until the sync. */
  stale_pair_ids: number[];
  groups: number[];
  users: string[];
}

/** What a create or a full replace writes. */
export interface DocumentSetWrite {
  name: string;
  description: string | null;
  is_public: boolean;
  cc_pair_ids: readonly number[];
  groups: readonly number[];
  users: readonly string[];
}

interface SetRow {
  id: number;
  name: string;
  description: string | null;
  is_public: number;
  is_up_to_date: number;
  is_deleting: number;
  creator_id: string | null;
  sync_since: string | null;
  sync_stuck: number;
  pairs: string | null;
  stale: string | null;
  groups: string | null;
  users: string | null;
}

const COLUMNS = `s.*,
  (SELECT group_concat(cc_pair_id) FROM document_set_pairs p
    WHERE p.set_id = s.id AND p.is_current = 1) AS pairs,
  (SELECT group_concat(cc_pair_id) FROM document_set_pairs p
    WHERE p.set_id = s.id AND p.is_current = 0) AS stale,
  (SELECT group_concat(group_id) FROM document_set_groups g WHERE g.set_id = s.id) AS groups,
  (SELECT json_group_array(user_id) FROM document_set_users u WHERE u.set_id = s.id) AS users`;

const numbers = (list: string | null): number[] =>
  list === null
    ? []
    : list
        .split(',')
        .map(Number)
        .sort((a, b) => a - b);

function toSet(row: SetRow): DocumentSetRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    is_public: row.is_public === 1,
    is_up_to_date: row.is_up_to_date === 1,
    is_deleting: row.is_deleting === 1,
    creator_id: row.creator_id,
    sync_since: row.sync_since,
    sync_stuck: row.sync_stuck === 1,
    cc_pair_ids: numbers(row.pairs),
    stale_pair_ids: numbers(row.stale),
    groups: numbers(row.groups),
    users: row.users === null ? [] : (JSON.parse(row.users) as string[]).sort(),
  };
}

type Id = { id: number };

function prepare(db: Sqlite) {
  return {
    insert: db.statement<{
      name: string;
      description: string | null;
      is_public: number;
      creator_id: string | null;
      now: string;
    }>(
      `INSERT INTO document_sets (name, description, is_public, is_up_to_date, creator_id,
         sync_since, time_created)
       VALUES (@name, @description, @is_public, 0, @creator_id, @now, @now)`,
    ),
    update: db.statement<
      Id & { name: string; description: string | null; is_public: number; now: string }
    >(
      `UPDATE document_sets SET name = @name, description = @description, is_public = @is_public,
         is_up_to_date = 0, sync_since = @now
       WHERE id = @id`,
    ),
    retirePairs: db.statement<Id & { keep: string }>(
      `UPDATE document_set_pairs SET is_current = 0 WHERE set_id = @id
         AND cc_pair_id NOT IN (SELECT value FROM json_each(@keep))`,
    ),
    linkPair: db.statement<Id & { cc_pair_id: number }>(
      `INSERT INTO document_set_pairs (set_id, cc_pair_id, is_current) VALUES (@id, @cc_pair_id, 1)
       ON CONFLICT (set_id, cc_pair_id) DO UPDATE SET is_current = 1`,
    ),
    clearGroups: db.statement<Id>('DELETE FROM document_set_groups WHERE set_id = @id'),
    addGroup: db.statement<Id & { group_id: number }>(
      'INSERT OR IGNORE INTO document_set_groups (set_id, group_id) VALUES (@id, @group_id)',
    ),
    removeGroup: db.statement<Id & { group_id: number }>(
      'DELETE FROM document_set_groups WHERE set_id = @id AND group_id = @group_id',
    ),
    clearUsers: db.statement<Id>('DELETE FROM document_set_users WHERE set_id = @id'),
    addUser: db.statement<Id & { user_id: string }>(
      'INSERT OR IGNORE INTO document_set_users (set_id, user_id) VALUES (@id, @user_id)',
    ),
    markDeleting: db.statement<Id & { now: string }>(
      `UPDATE document_sets SET is_deleting = 1, is_up_to_date = 0, sync_since = @now
       WHERE id = @id`,
    ),
    markSyncing: db.statement<Id & { now: string }>(
      'UPDATE document_sets SET is_up_to_date = 0, sync_since = @now WHERE id = @id',
    ),
    synced: db.statement<Id>(
      'UPDATE document_sets SET is_up_to_date = 1, sync_since = NULL WHERE id = @id',
    ),
    dropStale: db.statement<Id>(
      'DELETE FROM document_set_pairs WHERE set_id = @id AND is_current = 0',
    ),
    stuck: db.statement<Id & { stuck: number }>(
      'UPDATE document_sets SET sync_stuck = @stuck WHERE id = @id',
    ),
    delete: db.statement<Id>('DELETE FROM document_sets WHERE id = @id'),
    get: db.statement<Id, SetRow>(`SELECT ${COLUMNS} FROM document_sets s WHERE s.id = @id`),
    byName: db.column<{ name: string }, number>('SELECT id FROM document_sets WHERE name = @name'),
    list: db.statement<NoParams, SetRow>(`SELECT ${COLUMNS} FROM document_sets s ORDER BY s.id`),
    forgetGroup: db.statement<{ group_id: number }>(
      'DELETE FROM document_set_groups WHERE group_id = @group_id',
    ),
    ofGroup: db.column<{ group_id: number }, number>(
      'SELECT set_id FROM document_set_groups WHERE group_id = @group_id ORDER BY set_id',
    ),
  };
}

/** The document sets. */
export class DocumentSets {
  private readonly stmt: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Sqlite,
    private readonly now: () => string,
  ) {
    this.stmt = prepare(db);
  }

  private writeLinks(id: number, input: DocumentSetWrite): void {
    this.stmt.retirePairs.run({ id, keep: JSON.stringify(input.cc_pair_ids) });
    for (const pairId of input.cc_pair_ids) this.stmt.linkPair.run({ id, cc_pair_id: pairId });
    this.stmt.clearGroups.run({ id });
    for (const groupId of input.groups) this.stmt.addGroup.run({ id, group_id: groupId });
    this.stmt.clearUsers.run({ id });
    for (const userId of input.users) this.stmt.addUser.run({ id, user_id: userId });
  }

  /** A new set, not up to date; its id. */
  create(input: DocumentSetWrite, creatorId: string | null): number {
    return this.db.transaction(() => {
      const id = Number(
        this.stmt.insert.run({
          name: input.name,
          description: input.description,
          is_public: input.is_public ? 1 : 0,
          creator_id: creatorId,
          now: this.now(),
        }).lastInsertRowid,
      );
      this.writeLinks(id, input);
      return id;
    })();
  }

  /** A full replace; pairs left out keep a link no longer current until the sync. */
  replace(id: number, input: DocumentSetWrite): void {
    this.db.transaction(() => {
      this.stmt.update.run({
        id,
        name: input.name,
        description: input.description,
        is_public: input.is_public ? 1 : 0,
        now: this.now(),
      });
      this.writeLinks(id, input);
    })();
  }

  /** Shares the set with a group, or stops (the group's document-set call). */
  setGroup(id: number, groupId: number, shared: boolean): void {
    this.db.transaction(() => {
      if (shared) this.stmt.addGroup.run({ id, group_id: groupId });
      else this.stmt.removeGroup.run({ id, group_id: groupId });
      this.stmt.markSyncing.run({ id, now: this.now() });
    })();
  }

  /** A delete: every pair link stops being current; the sync removes the set. */
  markDeleting(id: number): void {
    this.db.transaction(() => {
      this.stmt.retirePairs.run({ id, keep: '[]' });
      this.stmt.markDeleting.run({ id, now: this.now() });
    })();
  }

  /** The end of a sync: stale links go; the set is up to date, or gone if it was deleted. */
  finishSync(id: number): void {
    this.db.transaction(() => {
      const set = this.get(id);
      if (set === undefined) return;
      if (set.is_deleting) {
        this.stmt.delete.run({ id });
        return;
      }
      this.stmt.dropStale.run({ id });
      this.stmt.synced.run({ id });
    })();
  }

  /** Holds the set's sync back, or lets it end; false when there is no set. */
  setStuck(id: number, stuck: boolean): boolean {
    return this.stmt.stuck.run({ id, stuck: stuck ? 1 : 0 }).changes > 0;
  }

  get(id: number): DocumentSetRecord | undefined {
    const row = this.stmt.get.get({ id });
    return row === undefined ? undefined : toSet(row);
  }

  /** The id of the set named `name`, if any. */
  idByName(name: string): number | undefined {
    return this.stmt.byName.get({ name });
  }

  list(): DocumentSetRecord[] {
    return this.stmt.list.all().map(toSet);
  }

  /** A deleted group is no longer one any set is shared with. */
  forgetGroup(groupId: number): void {
    this.stmt.forgetGroup.run({ group_id: groupId });
  }

  /** Ids of the sets shared with a group. */
  ofGroup(groupId: number): number[] {
    return this.stmt.ofGroup.all({ group_id: groupId });
  }
}
