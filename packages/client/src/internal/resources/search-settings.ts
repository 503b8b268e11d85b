/**
 * `kis.searchSettings`: the settings of the index searches read, and of the new one an
 * embedding-model switch builds (deployed servers; `docs/deployed-servers.md`, "Model switch").
 * During a switch, searches and document checks read the current index only.
 */
import type { KisClient } from '../../kis-client.js';
import type { CallContext } from '../call.js';

const SECONDARY = '/search-settings/get-secondary-search-settings';
const ALL = '/search-settings/get-all-search-settings';
const PROGRESS = '/search-settings/reindex-progress';
const ERRORS = '/search-settings/reindex-errors';

/** `kis.searchSettings`. */
export function searchSettingsResource(ctx: CallContext): KisClient['searchSettings'] {
  return {
    secondary: async (opts) =>
      (await ctx.call((fetch) => ctx.api.GET(SECONDARY, { fetch }), opts)) ?? null,
    all: async (opts) => ctx.call((fetch) => ctx.api.GET(ALL, { fetch }), opts),
    reindexProgress: async (opts) => ctx.call((fetch) => ctx.api.GET(PROGRESS, { fetch }), opts),
    reindexErrors: async (opts) => ctx.call((fetch) => ctx.api.GET(ERRORS, { fetch }), opts),
  };
}
