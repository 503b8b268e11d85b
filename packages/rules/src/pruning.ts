/**
 * Pruning (docs/deployed-servers.md, "Pruning"; `background/celery/tasks/pruning/tasks.py`): a
 * prune lists every id the pair's connector enumerates and removes every document linked to the
 * pair that the listing lacks, whether it was pushed or not. A document only that pair holds
 * leaves the index and the database; a shared one only loses the pair.
 */

/** `PATCH /manage/admin/connector/{id}` stores this for a null `prune_freq` (`db/connector.py:145-149`). */
export const PRUNE_FREQ_ON_UPDATE = 604800;

/**
 * The `prune_freq` that keeps "never" through a connector update: servers skip automatic prunes
 * for 0 as for null (`pruning/tasks.py:174-207`), and store 0 as sent, where a null becomes 604800.
 */
export const PRUNE_FREQ_NEVER = 0;

/** The `prune_freq` a connector update sends for `value`: itself, or 0 for null (never). */
export function prunePatchValue(value: number | null | undefined): number {
  return value ?? PRUNE_FREQ_NEVER;
}

/** True when `prune_freq` arms automatic prunes: a number of seconds above 0. */
export function prunesOnItsOwn(pruneFreq: number | null | undefined): boolean {
  return typeof pruneFreq === 'number' && pruneFreq > 0;
}

/** The least `pruning_frequency` the pair property takes, in seconds (`db/models.py:2040-2045`). */
export const MIN_PRUNE_FREQ = 300;

/** The connector source of pushed documents: no connector class, so it never indexes nor prunes. */
export const PUSH_ONLY_SOURCE = 'ingestion_api';

/**
 * What a prune of a pair of `source` lists: `file-locations` (the file connector loads each id of
 * `file_locations`, none with `[]`, `connectors/file/connector.py:282-373`), `fails` (an
 * `ingestion_api` connector cannot be built, `connectors/factory.py:40-58,108-118`: the task fails,
 * nothing is deleted, `last_pruned` stays), or `source` (the documents its source still has; the
 * emulator's other connectors keep every document they hold).
 */
export type PruneListing = 'file-locations' | 'fails' | 'source';

export function pruneListing(source: string): PruneListing {
  if (source === PUSH_ONLY_SOURCE) return 'fails';
  return source === 'file' ? 'file-locations' : 'source';
}

/** The id the file connector gives the document of one file location (`FILE_CONNECTOR__<id>`). */
export function fileConnectorDocumentId(fileLocation: string): string {
  return `FILE_CONNECTOR__${fileLocation}`;
}

/** The document ids a file connector with this configuration enumerates. */
export function fileConnectorListing(config: Readonly<Record<string, unknown>>): string[] {
  const locations = config.file_locations;
  if (!Array.isArray(locations)) return [];
  return locations.filter((l): l is string => typeof l === 'string').map(fileConnectorDocumentId);
}

/**
 * The ids of `pairIds` a prune of a pair whose connector has `source` and `config` removes: for a
 * file connector, those its `file_locations` do not list (every one with `[]`); none when the
 * prune fails (`ingestion_api`); undefined when kis cannot know what the source lists.
 */
export function prunedIds(
  source: string,
  config: Readonly<Record<string, unknown>>,
  pairIds: Iterable<string>,
): string[] | undefined {
  const listing = pruneListing(source);
  if (listing === 'fails') return [];
  if (listing === 'source') return undefined;
  const kept = new Set(fileConnectorListing(config));
  return [...pairIds].filter((id) => !kept.has(id));
}

/**
 * The connector of a pair to push into: of the push-only source, which no connector run indexes
 * and no prune empties, with no scheduled refresh nor prune.
 */
export const PUSH_ONLY_CONNECTOR = Object.freeze({
  source: PUSH_ONLY_SOURCE,
  input_type: 'load_state',
  connector_specific_config: Object.freeze({}),
  refresh_freq: null,
  prune_freq: null,
} as const);

/** What decides when a pair is pruned on its own. */
export interface AutoPruneFacts {
  /** The connector's `prune_freq` in seconds: null or 0 means never. */
  readonly prune_freq: number | null;
  readonly status: string;
  readonly last_pruned: string | null;
  /** The connector's creation time. */
  readonly connector_created: string;
  /** True once an index attempt of the pair succeeded. */
  readonly ever_indexed: boolean;
}

/**
 * When the pair is due for an automatic prune (epoch ms), or undefined when never: `prune_freq`
 * set, the pair `ACTIVE`, and `prune_freq` past its last prune or, before the first, past the
 * connector's creation once the pair ever indexed (`pruning/tasks.py:174-207`). Pairs of
 * `ingestion_api` connectors never index, so they are never due.
 */
export function autoPruneDueAt(facts: AutoPruneFacts): number | undefined {
  if (facts.prune_freq === null || facts.prune_freq <= 0 || facts.status !== 'ACTIVE') {
    return undefined;
  }
  const from = facts.last_pruned ?? (facts.ever_indexed ? facts.connector_created : null);
  return from === null ? undefined : Date.parse(from) + facts.prune_freq * 1000;
}
