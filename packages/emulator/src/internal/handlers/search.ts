// Admin search (`query_backend.py:29-79`): keyword retrieval in the PRESENT index's FTS5 table,
// best chunks first, of at most 50 chunks with hidden documents; or, for an empty query, a random
// sample of at most 10 chunks without them. Only chunks the caller may see (visibility.ts, no
// admin bypass) and that pass the filters count; one entry per document, its best chunk.
import {
  includesHidden,
  isSampleQuery,
  KEYWORD_HITS,
  RANDOM_SAMPLE_CHUNKS,
  UNKNOWN_SEMANTIC_IDENTIFIER,
} from '@kis/rules';
import type { Handlers, Schemas } from '../op-types.js';
import { filterOf } from '../search-filters.js';
import { type ChunkHit, ftsQuery } from '../store/search-index.js';
import { known } from './actors.js';
import type { HandlerContext } from './context.js';

/** Hits read per page of a keyword query while the filters leave too few. */
const PAGE = 200;
/** Characters of a chunk shown as its blurb. */
const BLURB_CHARS = 256;

function blurbOf(content: string): string {
  if (content.length <= BLURB_CHARS) return content;
  const cut = content.slice(0, BLURB_CHARS);
  const space = cut.lastIndexOf(' ');
  return space > 0 ? cut.slice(0, space) : cut;
}

/** An owner's name as servers show it: display name, else first and last names, else e-mail. */
function ownerName(owner: unknown): string | undefined {
  if (typeof owner !== 'object' || owner === null) return undefined;
  const o = owner as Record<string, unknown>;
  if (typeof o.display_name === 'string' && o.display_name !== '') return o.display_name;
  const parts = [o.first_name, o.middle_initial, o.last_name].filter(
    (p): p is string => typeof p === 'string' && p !== '',
  );
  if (parts.length > 0) return parts.join(' ');
  return typeof o.email === 'string' ? o.email : undefined;
}

function ownerNames(json: string | null): string[] | null {
  if (json === null) return null;
  return (JSON.parse(json) as unknown[]).flatMap((o) => ownerName(o) ?? []);
}

function searchDoc(hit: ChunkHit): Schemas['SearchDoc'] {
  const extra = JSON.parse(hit.extra) as { file_id?: unknown };
  const highlighted = hit.highlighted ?? '';
  return {
    document_id: hit.id,
    chunk_ind: hit.chunk_ind,
    semantic_identifier: hit.semantic_identifier || UNKNOWN_SEMANTIC_IDENTIFIER,
    link: hit.link,
    blurb: blurbOf(hit.content),
    source_type: hit.source,
    boost: hit.boost,
    hidden: hit.hidden === 1,
    metadata: JSON.parse(hit.metadata) as Schemas['SearchDoc']['metadata'],
    score: hit.score,
    is_relevant: null,
    relevance_explanation: null,
    match_highlights: highlighted.includes('<hi>') ? [highlighted] : [],
    updated_at: hit.doc_updated_at,
    primary_owners: ownerNames(hit.primary_owners),
    secondary_owners: ownerNames(hit.secondary_owners),
    is_internet: false,
    file_id: typeof extra.file_id === 'string' ? extra.file_id : null,
  };
}

export function searchHandlers(ctx: HandlerContext): Pick<Handlers, 'adminSearch'> {
  const { store } = ctx;
  return {
    adminSearch({ body, caller }) {
      const viewer = ctx.visibility.viewer(known(caller));
      const accepts = filterOf(body.filters, ctx.indexBackend);
      const hidden = includesHidden(body.query);
      const present = store.presentSettingsId();
      const hits: ChunkHit[] = [];
      const take = (hit: ChunkHit, limit: number): boolean => {
        const visible = viewer.sees(JSON.parse(hit.readers) as string[]);
        if (visible && (hidden || hit.hidden === 0) && accepts(hit)) hits.push(hit);
        return hits.length >= limit;
      };
      if (isSampleQuery(body.query)) {
        for (const id of store.searchIndex.shuffledChunkIds(present)) {
          const hit = store.searchIndex.chunkById(id);
          if (hit !== undefined && take(hit, RANDOM_SAMPLE_CHUNKS)) break;
        }
      } else {
        const query = ftsQuery(body.query);
        for (let offset = 0; query !== undefined; offset += PAGE) {
          const page = store.searchIndex.keywordPage(present, query, PAGE, offset);
          if (page.some((hit) => take(hit, KEYWORD_HITS)) || page.length < PAGE) break;
        }
      }
      const seen = new Set<number>();
      const documents = hits.filter((h) => !seen.has(h.seq) && seen.add(h.seq)).map(searchDoc);
      return { status: 200, body: { documents } };
    },
  };
}
