/**
 * The role an operation needs, in words, for permission errors and `kis.doctor()`. Deployed
 * servers let a curator or an admin key call every operation but the uploads, which any key may
 * call (the spec's `x-kis-role`); servers that follow the seed want the admin key on `/manage`.
 */
import { ROLES, ROUTE_VARIANTS, roleAllows } from '@kis/rules';

/** The roles that may manage connectors, most powerful first (`['admin', 'curator']`). */
export const MANAGING_ROLES: readonly string[] = ROLES.filter((r) => roleAllows(r, 'curator'))
  .slice()
  .reverse();

/** "a key that can manage connectors (admin or curator)". */
export const MANAGING_KEY = `a key that can manage connectors (${MANAGING_ROLES.join(' or ')})`;

const ANY_KEY_PATHS: readonly string[] = ROUTE_VARIANTS.upload;

/** The roles that may call the operation at `path` (ids filled in); undefined when any key may. */
export function rolesFor(path: string): readonly string[] | undefined {
  return ANY_KEY_PATHS.includes(path) || path === '/version' ? undefined : MANAGING_ROLES;
}
