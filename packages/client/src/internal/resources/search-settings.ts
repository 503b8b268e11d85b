/**
 * `kis.searchSettings`: the settings of the index searches read, and of the new one an
 * embedding-model switch builds (deployed servers; `docs/deployed-servers.md`, "Model switch").
 * During a switch, searches and document checks read the current index only.
 */
import type { KisClient } from '../../kis-client.js';
import type { RequestOptions } from '../../request-options.js';
import type { SearchSettings } from '../../types.js';
import type { CallContext } from '../call.js';
import { modelSwitchNotice } from '../model-switch-notice.js';

const SECONDARY = '/search-settings/get-secondary-search-settings';
const ALL = '/search-settings/get-all-search-settings';
const PROGRESS = '/search-settings/reindex-progress';
const ERRORS = '/search-settings/reindex-errors';

async function secondary(
  ctx: CallContext,
  opts: RequestOptions | undefined,
): Promise<SearchSettings | null> {
  return (await ctx.call((fetch) => ctx.api.GET(SECONDARY, { fetch }), opts)) ?? null;
}

/** `kis.searchSettings`. */
export function searchSettingsResource(ctx: CallContext): KisClient['searchSettings'] {
  return {
    secondary: async (opts) => secondary(ctx, opts),
    async switchInProgress(opts) {
      const settings = await secondary(ctx, opts);
      if (settings === null) return null;
      // the settings say their flow; the release only when they do not (servers before 4.4.0)
      const known = typeof settings.use_port_flow === 'boolean';
      const version = known ? undefined : await ctx.release().catch(() => undefined);
      return modelSwitchNotice(settings, version);
    },
    all: async (opts) => ctx.call((fetch) => ctx.api.GET(ALL, { fetch }), opts),
    reindexProgress: async (opts) => ctx.call((fetch) => ctx.api.GET(PROGRESS, { fetch }), opts),
    reindexErrors: async (opts) => ctx.call((fetch) => ctx.api.GET(ERRORS, { fetch }), opts),
  };
}
