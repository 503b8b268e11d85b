// Accounts (table `accounts`): the users the emulator knows, each an API key's own account (the
// keys it started with and those made with `createApiKey`). Groups list them as members, the
// credentials they create name them as owners; a key's account e-mail is the rule book's.
import { keyAccountEmail } from '@kis/rules';
import type { NoParams, Sqlite } from './sqlite.js';

/** Where the emulator's key accounts get their e-mail addresses (a reserved, unroutable domain). */
export const KEY_EMAIL_DOMAIN = '.apikey.kis-emulator.invalid';

export interface AccountRecord {
  /** The account's uuid (a key's `user_id`). */
  id: string;
  /** The key's name (`API_KEY__<name>` in the e-mail), null when unnamed. */
  name: string | null;
  /** The key's role (release 4.6.1's `UserRole`). */
  role: string;
  email: string;
}

interface AccountRow {
  id: string;
  name: string | null;
  role: string;
}

function toAccount(row: AccountRow): AccountRecord {
  return { ...row, email: keyAccountEmail(row.name, row.id, KEY_EMAIL_DOMAIN) };
}

function prepare(db: Sqlite) {
  return {
    upsert: db.statement<AccountRow>(
      `INSERT INTO accounts (id, name, role) VALUES (@id, @name, @role)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, role = excluded.role`,
    ),
    get: db.statement<{ id: string }, AccountRow>('SELECT * FROM accounts WHERE id = @id'),
    list: db.statement<NoParams, AccountRow>('SELECT * FROM accounts ORDER BY id'),
  };
}

/** The accounts. */
export class Accounts {
  private readonly stmt: ReturnType<typeof prepare>;

  constructor(db: Sqlite) {
    this.stmt = prepare(db);
  }

  /** Records (or updates) an account. */
  register(account: AccountRow): void {
    this.stmt.upsert.run(account);
  }

  get(id: string): AccountRecord | undefined {
    const row = this.stmt.get.get({ id });
    return row === undefined ? undefined : toAccount(row);
  }

  /** The ids among `ids` that name no account. */
  unknown(ids: readonly string[]): string[] {
    return ids.filter((id) => this.stmt.get.get({ id }) === undefined);
  }

  list(): AccountRecord[] {
    return this.stmt.list.all().map(toAccount);
  }
}
