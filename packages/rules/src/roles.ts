/**
 * Roles of API keys (docs/deployed-servers.md, "Authentication and roles"). Each operation of the spec names the
 * least role it needs, per server profile, in its `x-kis-role` extension.
 */

/** From least to most: `basic` (any user), `curator` (manages connectors), `admin`. */
export type Role = 'basic' | 'curator' | 'admin';

export const ROLES: readonly Role[] = Object.freeze(['basic', 'curator', 'admin']);

/** True when a key of role `granted` may call an operation that needs `needed`. */
export function roleAllows(granted: Role, needed: Role): boolean {
  return ROLES.indexOf(granted) >= ROLES.indexOf(needed);
}
