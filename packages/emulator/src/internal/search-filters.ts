// The filters of admin search, on a chunk found in the index (the rule book's `admin-search.ts`):
// source, document-set name, tag and time, each group ANDed with the others, values inside one
// ORed (`vespa_request_builders.py:182-255`). A Vespa index ignores `created_at_range`.
import {
  documentTags,
  INDEX_BACKENDS,
  type IndexBackend,
  inRange,
  type SearchFilterInput,
  updatedRange,
} from '@kis/rules';
import type { ChunkHit } from './store/search-index.js';

/** A test of a hit against the filters, prepared once per search. */
export function filterOf(
  filters: SearchFilterInput,
  backend: IndexBackend,
): (hit: ChunkHit) => boolean {
  const sources = filters.source_type ?? undefined;
  const sets = filters.document_set ?? undefined;
  const tags = filters.tags ?? undefined;
  const updated = updatedRange(filters);
  const created = INDEX_BACKENDS[backend].appliesCreatedRange
    ? (filters.created_at_range ?? undefined)
    : undefined;
  return (hit) => {
    if (sources !== undefined && !sources.includes(hit.source)) return false;
    if (sets !== undefined) {
      const names = JSON.parse(hit.set_names) as string[];
      if (!sets.some((s) => names.includes(s))) return false;
    }
    if (tags !== undefined) {
      const own = documentTags(JSON.parse(hit.metadata) as Record<string, unknown>);
      const match = tags.some((t) =>
        own.some((o) => o.tag_key === t.tag_key && o.tag_value === t.tag_value),
      );
      if (!match) return false;
    }
    if (!inRange(hit.doc_updated_at, updated)) return false;
    if (created !== undefined) {
      const extra = JSON.parse(hit.extra) as { doc_created_at?: unknown };
      const at = typeof extra.doc_created_at === 'string' ? extra.doc_created_at : hit.time_created;
      if (!inRange(at, created)) return false;
    }
    return true;
  };
}
