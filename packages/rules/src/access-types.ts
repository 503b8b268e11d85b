/**
 * Which `access_type` spellings a server takes (docs/deployed-servers.md, "Connectors and
 * credentials"): deployed servers only the lower-case `public`, `private`, `sync`; the seed's
 * example writes `PUBLIC`, which servers of the seed take.
 */
import type { Profile } from './answer.js';

/** True when a server of `profile` accepts this value of the spec's `AccessType`. */
export function profileAcceptsAccessType(profile: Profile, value: string): boolean {
  return profile === 'seed' || value === value.toLowerCase();
}
