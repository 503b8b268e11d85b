/**
 * Permission tokens of deployed servers (docs/deployed-servers.md, "Keys and their rights"): the
 * main line checks one per route, and a key holds the tokens its groups grant, with what they
 * imply. Release 4.6.1 checks tokens on a few routes too (`basic`, `admin`).
 */

/** The tokens kis reads; servers know more, and a key may hold any of them. */
export const PERMISSIONS = Object.freeze({
  /** Implies every token. */
  admin: 'admin',
  /** Search, chat and the document checks; what the seeded `Basic` group grants. */
  basic: 'basic',
  readConnectors: 'read:connectors',
  manageConnectors: 'manage:connectors',
  /** Every document set in listings, shared or not. */
  readDocumentSets: 'read:document_sets',
  /** Creating, changing and deleting document sets; scoped: group managers, in their groups. */
  manageDocumentSets: 'manage:document_sets',
  readUserGroups: 'read:user_groups',
  /** Creating and deleting user groups (global only); changing them (scoped too). */
  manageUserGroups: 'manage:user_groups',
  /** Creating API keys; as strong as `admin`, since its holder may put a key in any group. */
  manageServiceAccountApiKeys: 'manage:service_account_api_keys',
  /** All a key in no group holds on the main line. */
  writeChat: 'write:chat',
} as const);

export type KnownPermission = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];

/** The tokens each token implies besides itself (`admin` implies all and is not listed). */
export const IMPLIED_PERMISSIONS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'manage:connectors': Object.freeze(['read:connectors']),
  // Inferred as for connectors: managing a kind of object includes reading it.
  'manage:document_sets': Object.freeze(['read:document_sets']),
  'manage:user_groups': Object.freeze(['read:user_groups']),
});

/**
 * The tokens `granted` amounts to, implied ones added, sorted. `admin` stays a single token:
 * it implies every other, including those kis does not name.
 */
export function effectivePermissions(granted: Iterable<string>): string[] {
  const out = new Set<string>();
  const add = (token: string): void => {
    if (out.has(token)) return;
    out.add(token);
    for (const implied of IMPLIED_PERMISSIONS[token] ?? []) add(implied);
  };
  for (const token of granted) add(token);
  return [...out].sort();
}

/** True when holding `permissions` (as granted or as effective) gives the token `needed`. */
export function grants(permissions: Iterable<string>, needed: string): boolean {
  const effective = effectivePermissions(permissions);
  return effective.includes(PERMISSIONS.admin) || effective.includes(needed);
}
