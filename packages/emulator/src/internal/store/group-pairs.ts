// The links of user groups to pairs (table `user_group_pairs`): made at association (`groups` of
// the body) and by the group update, the only call that changes them later. A link the update
// removed stays, not current, until the group's sync drops it; documents name only the groups of
// current links (`ee/.../db/user_group.py:406-447`).
import type { Sqlite } from './sqlite.js';

type Link = { group_id: number; cc_pair_id: number };

function prepare(db: Sqlite) {
  return {
    link: db.statement<Link>(
      `INSERT INTO user_group_pairs (group_id, cc_pair_id, is_current)
       VALUES (@group_id, @cc_pair_id, 1)
       ON CONFLICT (group_id, cc_pair_id) DO UPDATE SET is_current = 1`,
    ),
    retire: db.statement<{ group_id: number; keep: string }>(
      `UPDATE user_group_pairs SET is_current = 0 WHERE group_id = @group_id
         AND cc_pair_id NOT IN (SELECT value FROM json_each(@keep))`,
    ),
    dropStale: db.statement<{ group_id: number }>(
      'DELETE FROM user_group_pairs WHERE group_id = @group_id AND is_current = 0',
    ),
    dropAll: db.statement<{ group_id: number }>(
      'DELETE FROM user_group_pairs WHERE group_id = @group_id',
    ),
    ofGroup: db.statement<{ group_id: number }, { cc_pair_id: number; is_current: number }>(
      'SELECT cc_pair_id, is_current FROM user_group_pairs WHERE group_id = @group_id ORDER BY cc_pair_id',
    ),
    set: db.statement<{ group_id: number; cc_pair_id: number; is_current: number }>(
      `INSERT INTO user_group_pairs (group_id, cc_pair_id, is_current)
       VALUES (@group_id, @cc_pair_id, @is_current)
       ON CONFLICT (group_id, cc_pair_id) DO UPDATE SET is_current = excluded.is_current`,
    ),
    unlinkPair: db.statement<{ cc_pair_id: number }>(
      'DELETE FROM user_group_pairs WHERE cc_pair_id = @cc_pair_id',
    ),
  };
}

/** The links of groups to pairs. */
export class GroupPairs {
  private readonly stmt: ReturnType<typeof prepare>;

  constructor(private readonly db: Sqlite) {
    this.stmt = prepare(db);
  }

  /** Links a pair to groups (at association: every link current). */
  linkPair(pairId: number, groupIds: readonly number[]): void {
    for (const groupId of groupIds) this.stmt.link.run({ group_id: groupId, cc_pair_id: pairId });
  }

  /** Makes `pairIds` the group's current pairs; the others' links stay, not current. */
  replace(groupId: number, pairIds: readonly number[]): void {
    this.db.transaction(() => {
      this.stmt.retire.run({ group_id: groupId, keep: JSON.stringify(pairIds) });
      for (const pairId of pairIds) this.stmt.link.run({ group_id: groupId, cc_pair_id: pairId });
    })();
  }

  /** The group's pairs: `current` ones, and all it links (stale ones included). */
  ofGroup(groupId: number): { current: number[]; all: number[] } {
    const rows = this.stmt.ofGroup.all({ group_id: groupId });
    return {
      current: rows.filter((r) => r.is_current === 1).map((r) => r.cc_pair_id),
      all: rows.map((r) => r.cc_pair_id),
    };
  }

  /** The end of a sync: links no longer current go. */
  dropStale(groupId: number): void {
    this.stmt.dropStale.run({ group_id: groupId });
  }

  dropAll(groupId: number): void {
    this.stmt.dropAll.run({ group_id: groupId });
  }

  /** Sets one link as given, behind the API's back (the emulator's control calls). */
  set(groupId: number, pairId: number, current: boolean): void {
    this.stmt.set.run({ group_id: groupId, cc_pair_id: pairId, is_current: current ? 1 : 0 });
  }

  /** Removes every link of a pair (the pair's groups replaced behind the API's back). */
  unlinkPair(pairId: number): void {
    this.stmt.unlinkPair.run({ cc_pair_id: pairId });
  }
}
