import type { Profile } from '@kis/spec/rules';
import type { PairDeletions } from '../deletions.js';
import type { ProfileBehaviour } from '../profile.js';
import type { Store } from '../store/index.js';

/** What every handler may use. */
export interface HandlerContext {
  store: Store;
  profile: Profile;
  behaviour: ProfileBehaviour;
  /** Added service time per ingestion request, in milliseconds. */
  latencyMs: number;
  now: () => Date;
  /** The `backend_version` the emulator reports. */
  version: string;
  /** What is wrong with a source's connector configuration, if anything (connector-configs.ts). */
  checkConfig: (source: string, config: Record<string, unknown>) => string | undefined;
  /** The asynchronous deletions of pairs (`createDeletionAttempt`). */
  deletions: PairDeletions;
}

/** `public`, `private`, `sync` whatever the spelling (`PUBLIC` in the seed's example). */
export function canonicalAccessType(value: string | null | undefined): string | null {
  return typeof value === 'string' ? value.toLowerCase() : null;
}
