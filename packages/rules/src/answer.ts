/**
 * The two server profiles and the shape of an answer: the names every rule about answers uses,
 * in a module of their own so that the rules which build answers (profiles.ts,
 * lifecycle-answers.ts) and those which name a profile do not import each other.
 */

/** `seed` (the contract as the seed document writes it) or `deployed` (the servers people run). */
export type Profile = 'seed' | 'deployed';

export const PROFILES: readonly Profile[] = Object.freeze(['seed', 'deployed']);
export const DEFAULT_PROFILE: Profile = 'seed';

/** An HTTP answer: status and JSON body. */
export interface Answer {
  status: number;
  body: unknown;
}
