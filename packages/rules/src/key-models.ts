/**
 * Where an API key's rights come from (docs/deployed-servers.md, "Keys and their rights"). Release
 * 4.6.1 gives a key a role; the main line makes a key a service account in groups whose grants are
 * its rights. A key with no rights at all is "limited" and refused before any other check.
 */
import { PERMISSIONS } from './permissions.js';

/** Release 4.6.1's roles (`UserRole` in the spec), in the server's order. */
export const USER_ROLES = Object.freeze([
  'limited',
  'basic',
  'admin',
  'curator',
  'global_curator',
  'slack_user',
  'ext_perm_user',
] as const);

export type UserRole = (typeof USER_ROLES)[number];

/** The role of a key created without one on release 4.6.1. */
export const DEFAULT_KEY_ROLE: UserRole = 'basic';

/** The roles release 4.6.1's connector calls admit (before that, a limited key is refused). */
export const CURATOR_OR_ADMIN_ROLES: readonly UserRole[] = Object.freeze([
  'admin',
  'curator',
  'global_curator',
]);

/** The groups every server seeds, and what each grants. Their ids differ between servers. */
export const DEFAULT_GROUP_GRANTS = Object.freeze({
  Admin: Object.freeze([PERMISSIONS.admin]),
  Basic: Object.freeze([PERMISSIONS.basic]),
});

export type DefaultGroup = keyof typeof DEFAULT_GROUP_GRANTS;

/** `getMe`'s `account_type` for an API key on the main line: keys are service accounts. */
export const KEY_ACCOUNT_TYPE = 'SERVICE_ACCOUNT';

/** What a main-line key in no group holds (the default when it is created without `group_ids`). */
export const UNGROUPED_KEY_PERMISSIONS: readonly string[] = Object.freeze([PERMISSIONS.writeChat]);

/** The seeded group a release 4.6.1 key of `role` joins; undefined for the other roles. */
export function roleKeyGroup(role: UserRole): DefaultGroup | undefined {
  if (role === 'admin') return 'Admin';
  if (role === 'basic') return 'Basic';
  return undefined;
}

/**
 * The permissions a release 4.6.1 key of `role` holds: its group's grants, `write:chat` for a
 * `limited` key, nothing for the other roles (so a `curator` key is limited).
 */
export function roleKeyPermissions(role: UserRole): readonly string[] {
  const group = roleKeyGroup(role);
  if (group !== undefined) return DEFAULT_GROUP_GRANTS[group];
  return role === 'limited' ? UNGROUPED_KEY_PERMISSIONS : [];
}

/** The permissions a main-line key holds: the union of its groups' grants; none: `write:chat`. */
export function groupKeyPermissions(groupGrants: readonly (readonly string[])[]): string[] {
  if (groupGrants.length === 0) return [...UNGROUPED_KEY_PERMISSIONS];
  return [...new Set(groupGrants.flat())].sort();
}

/** True for a key with no permissions at all: every server refuses it before any other check. */
export function isLimitedKey(permissions: readonly string[]): boolean {
  return permissions.length === 0;
}

/**
 * The e-mail of a key's account (`db/api_key.py:117-121`, `configs/constants.py:89-91`):
 * `API_KEY__<name or Unnamed>@<account uuid><the server's key domain>`. It is what the documents'
 * readers name when the key created their pair's credential.
 */
export function keyAccountEmail(name: string | null, userId: string, domain: string): string {
  return `API_KEY__${name ?? 'Unnamed'}@${userId}${domain}`;
}

/**
 * The permissions a release 4.6.1 key holds: the grants of the groups it belongs to (at creation
 * the group its role joins, `roleKeyGroup`), and `write:chat` for a `limited` key
 * (`db/permissions.py:41-47@v4.6.1`). With its creation groups only, this is `roleKeyPermissions`.
 */
export function releaseKeyPermissions(
  role: UserRole,
  groupGrants: readonly (readonly string[])[],
): string[] {
  const granted = new Set(groupGrants.flat());
  if (role === 'limited') for (const p of UNGROUPED_KEY_PERMISSIONS) granted.add(p);
  return [...granted].sort();
}
