/**
 * The server profile an end-to-end test runs against (`seed` or `deployed`), handed over by the
 * vitest project (vitest.config.ts), and what a server of that profile answers where the two
 * differ. The values are written here from docs/deployed-servers.md (compat notes), never taken
 * from the code under test.
 */
import type { Profile } from '@kis/rules';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    profile: Profile;
  }
}

/** The profile of the running project (`seed` when a file is run outside the projects). */
export function testProfile(): Profile {
  return inject('profile') ?? 'seed';
}

/** Expected values per profile. */
export interface ProfileFacts {
  /** Status and reason phrase for a missing or invalid key. */
  badKey: { status: number; reason: string };
}

export const FACTS: Readonly<Record<Profile, ProfileFacts>> = {
  seed: { badKey: { status: 401, reason: 'Unauthorized' } },
  // "Missing or invalid key: 403 {"detail":"Access denied. User is not authenticated."}"
  deployed: { badKey: { status: 403, reason: 'Forbidden' } },
};

/** The facts of the running project's profile. */
export function facts(): ProfileFacts {
  return FACTS[testProfile()];
}
