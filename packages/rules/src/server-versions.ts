/**
 * Facts that depend on a server's release number (`GET /version`'s `backend_version`, e.g.
 * `v4.6.1`), with the release each arrived in or left (docs/deployed-servers.md, "Releases").
 * The main line is newer than every release; a version kis cannot read counts as the newest.
 */
import type { ServerKind } from './server-kinds.js';

/** A release as three numbers: `[major, minor, patch]`. */
export type ReleaseNumber = readonly [number, number, number];

/**
 * The release a `backend_version` names (`v4.6.1`, `4.6.1`, `v3.2.0-cloud.4`, `4.6`); undefined
 * for text that names none (`main`, a development build).
 */
export function parseReleaseNumber(text: string): ReleaseNumber | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+].*)?$/.exec(text.trim());
  if (m === null) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

/** Negative when `a` is older than `b`, 0 when equal, positive when newer. */
export function compareReleases(a: ReleaseNumber, b: ReleaseNumber): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** A fact's releases: from `since` (included) to `until` (excluded); either may be open. */
export interface ReleaseRange {
  readonly since?: string;
  readonly until?: string;
}

export const RELEASE_FACTS = Object.freeze({
  /**
   * `already_existed` answered `new_docs > 0` (true for new documents) from v0.20.0 until the fix
   * b6467e8 (#9999) in v3.3.0 (`ingestion.py:231-234`, checked to v3.2.16; cloud tags from
   * v3.2.0-cloud.4 are fixed too).
   */
  alreadyExistedInverted: Object.freeze({ since: '0.20.0', until: '3.3.0' }),
  /** The content-hash gate of ingestion (commit 4f50400, #11159): before it, every call re-embeds. */
  contentHashGate: Object.freeze({ since: '4.0.0' }),
  /** Model switches copy every pair's documents into the new index (commit cba40da). */
  portFlow: Object.freeze({ since: '4.4.0' }),
  /** `GET /search-settings/reindex-progress` and `/reindex-errors` (`search_settings.py:330-351`). */
  reindexProgress: Object.freeze({ since: '4.5.0' }),
} satisfies Record<string, ReleaseRange>);

export type ReleaseFact = keyof typeof RELEASE_FACTS;

/** The release each kind of server plays: the seed's and the main line are newer than any. */
export const KIND_RELEASES: Readonly<Record<ServerKind, string | undefined>> = Object.freeze({
  seed: undefined,
  main: undefined,
  'v4.6.1': '4.6.1',
});

/**
 * True when a server of `version` (a `backend_version`; undefined or unreadable: the newest) has
 * the fact.
 */
export function releaseHas(fact: ReleaseFact, version: string | undefined): boolean {
  const range: ReleaseRange = RELEASE_FACTS[fact];
  const release = version === undefined ? undefined : parseReleaseNumber(version);
  if (release === undefined) return range.until === undefined;
  const since = range.since === undefined ? undefined : parseReleaseNumber(range.since);
  const until = range.until === undefined ? undefined : parseReleaseNumber(range.until);
  if (since !== undefined && compareReleases(release, since) < 0) return false;
  return until === undefined || compareReleases(release, until) < 0;
}

/** Routes that arrived with a release, by path, and what they are: a 404 there means older. */
const RELEASE_ROUTES: Readonly<Record<string, { feature: string; fact: ReleaseFact }>> =
  Object.freeze({
    '/search-settings/reindex-progress': { feature: 'reindex progress', fact: 'reindexProgress' },
    '/search-settings/reindex-errors': { feature: 'reindex errors', fact: 'reindexProgress' },
  });

/** The feature a route-not-found answer at `path` means the server is too old for, if any. */
export function releaseRouteOf(path: string): { feature: string; since: string } | undefined {
  const route = Object.hasOwn(RELEASE_ROUTES, path) ? RELEASE_ROUTES[path] : undefined;
  const since = route === undefined ? undefined : RELEASE_FACTS[route.fact].since;
  return route === undefined || since === undefined ? undefined : { feature: route.feature, since };
}
