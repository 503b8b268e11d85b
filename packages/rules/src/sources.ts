/**
 * Facts about source values and the default records every server has (docs/deployed-servers.md,
 * "Sources"). The list of source values itself is the spec's `DocumentSource` enumeration.
 */
import type { Profile } from './answer.js';

/** Id of the default empty credential, for sources that need no secret. */
export const DEFAULT_CREDENTIAL_ID = 0;
/** Source of the default empty credential on deployed servers. */
export const DEFAULT_CREDENTIAL_SOURCE = 'not_applicable';
/** The pair a document goes to when `cc_pair_id` is missing, null or 0. */
export const DEFAULT_CC_PAIR_ID = 1;

/** The pair an ingestion request with this `cc_pair_id` stores its document in. */
export function ingestionPairId(ccPairId: number | null | undefined): number {
  return ccPairId || DEFAULT_CC_PAIR_ID;
}
/** The source of an ingested document that names none. */
export const DEFAULT_DOCUMENT_SOURCE = 'ingestion_api';

/**
 * Sources whose connectors need no credential and use the default empty credential `0`: those
 * for which the deployed admin interface has no credential form (the seed names `file` and `web`).
 */
export const SOURCES_WITHOUT_CREDENTIAL: readonly string[] = Object.freeze([
  'ingestion_api',
  'web',
  'file',
  'google_sites',
  'mediawiki',
  'wikipedia',
  'xenforo',
  'not_applicable',
  'mock_connector',
  'user_file',
  'craft_file',
]);

const WITHOUT_CREDENTIAL = new Set(SOURCES_WITHOUT_CREDENTIAL);

/** True when a connector of `source` needs a credential of its own (unknown sources do). */
export function needsCredential(source: string): boolean {
  return !WITHOUT_CREDENTIAL.has(source);
}

/**
 * Source values that not every supported release accepts: the release that added it, or the one
 * that dropped it. Every other value of `DocumentSource` is accepted by every release.
 */
export const SOURCE_RELEASES: Readonly<Record<string, { since?: string; until?: string }>> =
  Object.freeze({
    requesttracker: { until: '4.0' },
    craft_file: { since: '3.0' },
    canvas: { since: '3.2' },
    braintrust: { since: '4.2' },
    lumapps: { since: '4.4' },
    box: { since: '4.5' },
  });

/**
 * True when a server of `profile` accepts `source` (a value of `DocumentSource`): the `deployed`
 * profile plays the newest release, which dropped `requesttracker`; `seed` accepts them all.
 */
export function profileAcceptsSource(profile: Profile, source: string): boolean {
  return profile === 'seed' || SOURCE_RELEASES[source]?.until === undefined;
}
