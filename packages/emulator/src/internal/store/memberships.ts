// Group memberships (table `user_group_members`): which accounts belong to which group, and which
// of them manage it (curate it, on release 4.6.1). A key's rights and the groups its access names
// are read from here on every request, so each account's memberships are kept in memory and
// dropped on every change.
import type { Membership } from '@kis/rules';
import type { Sqlite } from './sqlite.js';

interface MemberRow {
  group_id: number;
  user_id: string;
  is_manager: number;
}

function prepare(db: Sqlite) {
  return {
    ofUser: db.statement<{ user_id: string }, MemberRow>(
      'SELECT * FROM user_group_members WHERE user_id = @user_id ORDER BY group_id',
    ),
    ofGroup: db.statement<{ group_id: number }, MemberRow>(
      'SELECT * FROM user_group_members WHERE group_id = @group_id ORDER BY user_id',
    ),
    add: db.statement<{ group_id: number; user_id: string }>(
      'INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES (@group_id, @user_id)',
    ),
    removeOthers: db.statement<{ group_id: number; keep: string }>(
      `DELETE FROM user_group_members WHERE group_id = @group_id
         AND user_id NOT IN (SELECT value FROM json_each(@keep))`,
    ),
    setManager: db.statement<{ group_id: number; user_id: string; is_manager: number }>(
      `UPDATE user_group_members SET is_manager = @is_manager
       WHERE group_id = @group_id AND user_id = @user_id`,
    ),
  };
}

/** The memberships of accounts in groups. */
export class Memberships {
  private readonly stmt: ReturnType<typeof prepare>;
  private readonly cache = new Map<string, Membership[]>();

  constructor(private readonly db: Sqlite) {
    this.stmt = prepare(db);
  }

  /** The groups an account belongs to (cached until a membership changes). */
  ofUser(userId: string): readonly Membership[] {
    let found = this.cache.get(userId);
    if (found === undefined) {
      found = this.stmt.ofUser
        .all({ user_id: userId })
        .map((r) => ({ group_id: r.group_id, is_manager: r.is_manager === 1 }));
      this.cache.set(userId, found);
    }
    return found;
  }

  /** A group's members, with whether each manages it. */
  ofGroup(groupId: number): { user_id: string; is_manager: boolean }[] {
    return this.stmt.ofGroup
      .all({ group_id: groupId })
      .map((r) => ({ user_id: r.user_id, is_manager: r.is_manager === 1 }));
  }

  /** Adds accounts to a group (already members stay as they are). */
  add(groupId: number, userIds: readonly string[]): void {
    this.db.transaction(() => {
      for (const userId of userIds) this.stmt.add.run({ group_id: groupId, user_id: userId });
    })();
    this.cache.clear();
  }

  /** Makes `userIds` the group's members: others leave, new ones join (managers stay managers). */
  replace(groupId: number, userIds: readonly string[]): void {
    this.db.transaction(() => {
      this.stmt.removeOthers.run({ group_id: groupId, keep: JSON.stringify(userIds) });
      for (const userId of userIds) this.stmt.add.run({ group_id: groupId, user_id: userId });
    })();
    this.cache.clear();
  }

  /** Sets whether a member manages the group; false when the account is not a member. */
  setManager(groupId: number, userId: string, isManager: boolean): boolean {
    const changed = this.stmt.setManager.run({
      group_id: groupId,
      user_id: userId,
      is_manager: isManager ? 1 : 0,
    }).changes;
    this.cache.clear();
    return changed > 0;
  }

  /** Forgets what it read (after a reset, or a change made outside this class). */
  forget(): void {
    this.cache.clear();
  }
}
