// User groups as the API shows them (`ee/.../server/user_group/models.py:17-99`): members as user
// records, managers (main line) or curators (release 4.6.1), the pairs of current links with
// their connector and credential (masked), the document sets shared with the group.
import type { ServerKind } from '@kis/rules';
import type { Schemas } from './op-types.js';
import type { ProfileBehaviour } from './profile.js';
import type { AccountRecord } from './store/accounts.js';
import type { GroupRecord } from './store/groups.js';
import type { Store } from './store/index.js';
import { connectorView, credentialView } from './views.js';

/** An account as a user record (`UserInfoBase`). */
export function accountView(account: Pick<AccountRecord, 'id' | 'email'>): Schemas['UserInfoBase'] {
  return {
    id: account.id,
    email: account.email,
    is_active: true,
    is_superuser: false,
    is_verified: true,
    preferences: {},
    personalization: null,
    token_expires_at: null,
    is_cloud_superuser: false,
    team_name: null,
    is_anonymous_user: false,
    password_configured: false,
    tenant_info: null,
  };
}

/** A document set shared with a group, as the group shows it. */
function sharedSetView(store: Store, setId: number): Schemas['DocumentSetSummary'][] {
  const set = store.documentSets.get(setId);
  if (set === undefined) return [];
  return [
    {
      id: set.id,
      name: set.name,
      description: set.description,
      cc_pair_summaries: [],
      is_up_to_date: set.is_up_to_date,
      is_public: set.is_public,
      users: set.users,
      groups: set.groups,
      federated_connector_summaries: [],
    },
  ];
}

export function groupView(
  store: Store,
  kind: ServerKind,
  behaviour: ProfileBehaviour,
  group: GroupRecord,
): Schemas['UserGroup'] {
  const members = store.memberships.ofGroup(group.id);
  const managers = members.filter((m) => m.is_manager).map((m) => m.user_id);
  const pairs = store.groupPairs.ofGroup(group.id).current.flatMap((id) => {
    const pair = store.pairs.get(id);
    const connector = pair === undefined ? undefined : store.connectors.get(pair.connector_id);
    const credential = pair === undefined ? undefined : store.credentials.get(pair.credential_id);
    if (pair === undefined || connector === undefined || credential === undefined) return [];
    return [
      {
        id: pair.id,
        name: pair.name,
        connector: connectorView(connector, store.pairs.credentialIdsOfConnector(connector.id)),
        credential: credentialView(credential, behaviour),
        access_type: pair.access_type,
      },
    ];
  });
  const view: Schemas['UserGroup'] = {
    id: group.id,
    name: group.name,
    users: members.flatMap((m) => {
      const account = store.accounts.get(m.user_id);
      return account === undefined ? [] : [accountView(account)];
    }),
    cc_pairs: pairs,
    document_sets: store.documentSets.ofGroup(group.id).flatMap((id) => sharedSetView(store, id)),
    personas: [],
    is_up_to_date: group.is_up_to_date,
    is_up_for_deletion: group.is_up_for_deletion,
    is_default: group.is_default,
    incognito_enabled: false,
  };
  if (kind === 'v4.6.1') view.curator_ids = managers;
  else view.manager_ids = managers;
  return view;
}
