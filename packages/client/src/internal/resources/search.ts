/**
 * `kis.search`: what a key can find. Admin keyword search reads the current index with the
 * caller's own access (admins too), so it tells whether a document is searchable for this key
 * (deployed servers; `docs/deployed-servers.md`, "Is a document searchable?").
 */
import type { KisClient } from '../../kis-client.js';
import type { AdminSearchOptions } from '../../search-options.js';
import type { SearchDoc } from '../../types.js';
import type { CallContext } from '../call.js';

const SEARCH = '/admin/search';

/** POST /admin/search: one entry per document, best first; `""` samples 10 chunks at random. */
async function adminSearch(
  ctx: CallContext,
  query: string,
  opts: AdminSearchOptions = {},
): Promise<SearchDoc[]> {
  if (typeof query !== 'string') throw new TypeError('search.admin: query must be a string');
  const { filters = {}, ...request } = opts;
  const answer = await ctx.call(
    (fetch) => ctx.api.POST(SEARCH, { body: { query, filters }, fetch }),
    { ...request },
  );
  return answer.documents;
}

/** `kis.search`. */
export function searchResource(ctx: CallContext): KisClient['search'] {
  return { admin: async (query, opts) => adminSearch(ctx, query, opts) };
}
