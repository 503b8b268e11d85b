// The search settings (`search_settings.py:304-351`): the PRESENT index's model and the one a
// model switch builds (null when none), and the switch's ports: counted in `reindex-progress`
// (all 0 when none runs, as for a legacy switch), listed in `reindex-errors` when they failed or
// are paused.
import { NO_REINDEX_PROGRESS } from '@kis/rules';
import type { Handlers, Schemas } from '../op-types.js';
import type { SearchSettingsRecord } from '../store/search-settings.js';
import { runningPorts } from '../tasks/model-switch.js';
import type { HandlerContext } from './context.js';

function settingsView(s: SearchSettingsRecord): Schemas['SearchSettings'] {
  return {
    model_name: s.model_name,
    model_dim: s.model_dim,
    normalize: true,
    query_prefix: null,
    passage_prefix: null,
    api_url: null,
    provider_type: null,
    api_key: null,
    index_name: s.index_name,
    multipass_indexing: false,
    embedding_precision: 'float',
    reduced_dimension: null,
    switchover_type: s.switchover_type,
    use_port_flow: s.use_port_flow,
    enable_contextual_rag: false,
    contextual_rag_model_configuration_id: null,
  };
}

export function searchSettingsHandlers(
  ctx: HandlerContext,
): Pick<
  Handlers,
  'getSecondarySearchSettings' | 'getAllSearchSettings' | 'getReindexProgress' | 'listReindexErrors'
> {
  const settings = ctx.store.searchSettings;
  /** The ports a port flow runs now (a legacy switch has none). */
  const ports = () => {
    const running = runningPorts(ctx.tasks.context);
    return running?.settings.use_port_flow ? running.ports : [];
  };
  return {
    getSecondarySearchSettings() {
      const future = settings.future();
      return { status: 200, body: future === undefined ? null : settingsView(future) };
    },

    getAllSearchSettings() {
      const future = settings.future();
      return {
        status: 200,
        body: {
          current_settings: settingsView(settings.present()),
          secondary_settings: future === undefined ? null : settingsView(future),
        },
      };
    },

    getReindexProgress() {
      const all = ports();
      if (all.length === 0) return { status: 200, body: { ...NO_REINDEX_PROGRESS } };
      const count = (status: string) => all.filter((p) => p.status === status).length;
      return {
        status: 200,
        body: {
          total: all.length,
          waiting: count('waiting'),
          in_progress: count('in_progress'),
          completed: count('completed'),
          failed: count('failed'),
          paused: count('paused'),
        },
      };
    },

    listReindexErrors() {
      const body = ports()
        .filter((p) => p.status === 'failed' || p.status === 'paused')
        .map((p) => ({
          scope: 'cc_pair',
          cc_pair_id: p.cc_pair_id,
          user_id: null,
          name: ctx.store.pairs.get(p.cc_pair_id)?.name ?? '',
          error_msg: p.error_msg,
          paused: p.status === 'paused',
        }));
      return { status: 200, body };
    },
  };
}
