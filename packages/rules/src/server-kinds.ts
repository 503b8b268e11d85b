/**
 * The kinds of server whose answers the rule book tells apart (docs/deployed-servers.md, "Operating
 * connectors"): `seed` (the contract, as the emulator's seed profile plays it), and the two lines
 * of deployed servers, release `v4.6.1` (keys with roles) and the `main` line (keys in groups).
 */
import type { Profile } from './answer.js';

export type DeployedLine = 'v4.6.1' | 'main';
export type ServerKind = 'seed' | DeployedLine;

export const DEPLOYED_LINES: readonly DeployedLine[] = Object.freeze(['v4.6.1', 'main']);
export const SERVER_KINDS: readonly ServerKind[] = Object.freeze(['seed', 'v4.6.1', 'main']);

/** The kind of server a profile plays: the `deployed` profile follows the main line. */
export function serverKindOf(profile: Profile): ServerKind {
  return profile === 'deployed' ? 'main' : 'seed';
}
