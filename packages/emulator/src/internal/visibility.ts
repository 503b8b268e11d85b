// The one place the emulator decides whether a caller may see a document: the caller's access
// strings (`PUBLIC`, its account's e-mail, on the enterprise edition its groups' names, read at
// query time) against the readers the index holds for the document (the rule book's `maySee`).
// No admin bypass. Search, the size and chunk checks all ask here.
import { callerReaders, type Edition, keyAccountEmail, maySee } from '@kis/rules';
import type { Caller } from './access.js';
import { KEY_EMAIL_DOMAIN } from './store/accounts.js';
import type { Store } from './store/index.js';

/** Whom a caller is to the index. */
export interface Viewer {
  /** True when a document with these readers is visible to the caller. */
  sees(readers: readonly string[]): boolean;
}

export class Visibility {
  constructor(
    private readonly store: Store,
    private readonly edition: Edition,
  ) {}

  /** The caller's access strings. */
  readersOf(caller: Caller): string[] {
    const { userId, name } = caller.identity;
    const groups = this.store.groups.byIds(
      this.store.memberships.ofUser(userId).map((m) => m.group_id),
    );
    const email = keyAccountEmail(name, userId, KEY_EMAIL_DOMAIN);
    return callerReaders(
      email,
      groups.map((g) => g.name),
      this.edition,
    );
  }

  viewer(caller: Caller): Viewer {
    const own = this.readersOf(caller);
    return { sees: (readers) => maySee(readers, own) };
  }
}
