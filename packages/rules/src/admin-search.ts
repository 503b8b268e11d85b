/**
 * How `POST /admin/search` finds documents (docs/deployed-servers.md, "Is a document
 * searchable?"; `query_and_chat/query_backend.py:29-79`): keyword retrieval of at most 50 chunks,
 * hidden documents included, or, for an empty query, a random sample of at most 10 chunks
 * without hidden documents; filtered by the caller's access (admins too) and by `filters`, whose
 * groups are ANDed and whose values within a group are ORed; one entry per document, its best
 * chunk. It reads the current index only, never a new one being built.
 */

/** Chunks a keyword query returns at most (`NUM_RETURNED_HITS`, `configs/chat_configs.py:3`). */
export const KEYWORD_HITS = 50;

/** Chunks an empty query samples at most (`vespa_document_index.py:1354-1360`). */
export const RANDOM_SAMPLE_CHUNKS = 10;

/** The semantic identifier a hit with an empty one shows. */
export const UNKNOWN_SEMANTIC_IDENTIFIER = 'Unknown';

/** The mark around matched words in `match_highlights`. */
export const HIGHLIGHT = Object.freeze({ open: '<hi>', close: '</hi>' });

/** True for a query that switches to random sampling: empty or whitespace only. */
export function isSampleQuery(query: string): boolean {
  return query.trim() === '';
}

/** Hidden documents are found by a keyword query and left out of a random sample. */
export function includesHidden(query: string): boolean {
  return !isSampleQuery(query);
}

/** A time range of the filters; both ends inclusive, naive times are UTC (`search/models.py:68-97`). */
export interface TimeRange {
  readonly start?: string | null | undefined;
  readonly end?: string | null | undefined;
}

/** The filters as the request carries them (every field optional, null = no filter). */
export interface SearchFilterInput {
  readonly source_type?: readonly string[] | null | undefined;
  readonly document_set?: readonly string[] | null | undefined;
  readonly tags?:
    | readonly { readonly tag_key: string; readonly tag_value: string }[]
    | null
    | undefined;
  readonly created_at_range?: TimeRange | null | undefined;
  readonly updated_at_range?: TimeRange | null | undefined;
  readonly time_cutoff?: string | null | undefined;
}

/** A time as servers read it: a naive date-time is UTC. */
export function utcTime(text: string): number {
  const naive = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(text);
  return Date.parse(naive ? `${text}${text.includes('T') ? '' : 'T00:00:00'}Z` : text);
}

/**
 * The update-time range a search applies: `time_cutoff` is a legacy alias of its start, used only
 * when `updated_at_range` gives no start (`search/models.py:107-120`).
 */
export function updatedRange(filters: SearchFilterInput): TimeRange | undefined {
  const range = filters.updated_at_range ?? undefined;
  const cutoff = filters.time_cutoff ?? undefined;
  if (cutoff === undefined || (range?.start ?? undefined) !== undefined) return range;
  return { ...range, start: cutoff };
}

/** True when `time` (ISO) lies in `range` (inclusive; an open end matches). */
export function inRange(time: string, range: TimeRange | undefined): boolean {
  if (range === undefined) return true;
  const t = utcTime(time);
  if (range.start != null && t < utcTime(range.start)) return false;
  return !(range.end != null && t > utcTime(range.end));
}

/** A document's tags: one per metadata key and value, one per item of a list value. */
export function documentTags(
  metadata: Readonly<Record<string, unknown>>,
): { tag_key: string; tag_value: string }[] {
  const tags: { tag_key: string; tag_value: string }[] = [];
  for (const [key, value] of Object.entries(metadata)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      tags.push({ tag_key: key, tag_value: String(item) });
    }
  }
  return tags;
}

/**
 * The document indexes servers run, and where they differ (`vespa_request_builders.py:127-152,
 * 246-255`, `opensearch/search.py:1146-1176`, `chunk_retrieval.py:609`,
 * `opensearch_document_index.py:770`): Vespa ignores `created_at_range` and lets the document
 * checks read hidden documents; OpenSearch applies both ranges and hides hidden documents there.
 */
export const INDEX_BACKENDS = Object.freeze({
  vespa: Object.freeze({ appliesCreatedRange: false, checksSeeHidden: true }),
  opensearch: Object.freeze({ appliesCreatedRange: true, checksSeeHidden: false }),
});

export type IndexBackend = keyof typeof INDEX_BACKENDS;

export const DEFAULT_INDEX_BACKEND: IndexBackend = 'vespa';
