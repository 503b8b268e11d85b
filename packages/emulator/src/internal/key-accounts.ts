// The accounts of the keys the emulator starts with: registered, and put in their groups, at
// start and after a reset (keys made with `createApiKey` are registered when made). On release
// 4.6.1 a key joins the seeded group of its role (`roleKeyGroup`: a curator key joins none, so it
// is limited until a group grants it something); the other kinds use the groups the key was
// started in (`Admin`; `Basic` and `Curators`; `Basic`).
import { roleKeyGroup, type ServerKind } from '@kis/rules';
import type { KeyRing } from './auth.js';
import type { Store } from './store/index.js';

export function registerStartedKeys(store: Store, keys: KeyRing, kind: ServerKind): void {
  store.transaction(() => {
    for (const identity of keys.startedIdentities()) {
      store.accounts.register({ id: identity.userId, name: identity.name, role: identity.role });
      const roleGroup = roleKeyGroup(identity.role);
      const groupIds =
        kind === 'v4.6.1'
          ? store.groups
              .list()
              .filter((g) => g.name === roleGroup)
              .map((g) => g.id)
          : identity.groupIds;
      for (const groupId of groupIds) store.memberships.add(groupId, [identity.userId]);
    }
  });
}
