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
  const pending = ctx.api.GET(SECONDARY, { fetch: ctx.via({ ...opts }) });
  return (await ctx.unwrap(pending, 'GET', SECONDARY)) ?? null;
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
    all: async (opts) => ctx.unwrap(ctx.api.GET(ALL, { fetch: ctx.via({ ...opts }) }), 'GET', ALL),
    reindexProgress: async (opts) =>
      ctx.unwrap(ctx.api.GET(PROGRESS, { fetch: ctx.via({ ...opts }) }), 'GET', PROGRESS),
    reindexErrors: async (opts) =>
      ctx.unwrap(ctx.api.GET(ERRORS, { fetch: ctx.via({ ...opts }) }), 'GET', ERRORS),
  };
}
