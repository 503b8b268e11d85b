// An embedding-model switch, on the emulator's clock (`search_settings.py`, `swap_index.py`,
// `port/tasks.py`): new FUTURE settings get one port per in-scope pair (`inPortScope`), run one
// at a time for `portMs` each. The port flow (v4.4.0 on) copies a pair's chunks, pushed ones
// included, from the old index into the new one; the legacy flow re-runs connectors instead, so
// push-only pairs never finish (only pair 1 is left out of its count) and their documents reach
// the new index only if pushed again. `reindex` and `active_only` swap once every port is done;
// `instant` swaps at once, the ports back-filling the live index from the old one; a legacy
// `instant` swap drops every document.
import {
  DEFAULT_CC_PAIR_ID,
  inPortScope,
  legacyIndexesSource,
  legacyInstantDropsDocuments,
  type SwitchoverType,
  swapWaitsForPorts,
} from '@kis/rules';
import type { PortRecord, SearchSettingsRecord } from '../store/search-settings.js';
import { earliest, type TaskContext } from './task-context.js';

export interface SwitchRequest {
  model_name?: string | undefined;
  model_dim?: number | undefined;
  switchover_type?: SwitchoverType | undefined;
  use_port_flow?: boolean | undefined;
}

/** A switch asked for while one runs. */
export class SwitchInProgressError extends Error {}

/**
 * The settings whose ports run, and the index they copy from: FUTURE from PRESENT, or the
 * PRESENT of an `instant` switch still back-filling from the PAST index it replaced.
 */
function portTarget(
  ctx: TaskContext,
): { settings: SearchSettingsRecord; source: number } | undefined {
  const { store } = ctx;
  const future = store.searchSettings.future();
  const present = store.searchSettings.present();
  if (future !== undefined) return { settings: future, source: present.id };
  const past = store.searchSettings.past();
  const pending = store.searchSettings.ports(present.id).some((p) => p.status !== 'completed');
  return pending && past !== undefined ? { settings: present, source: past.id } : undefined;
}

/** The ports of the switch running, if any. */
export function runningPorts(
  ctx: TaskContext,
): { settings: SearchSettingsRecord; ports: PortRecord[] } | undefined {
  const target = portTarget(ctx);
  if (target === undefined) return undefined;
  return { settings: target.settings, ports: ctx.store.searchSettings.ports(target.settings.id) };
}

/** True when a port of this pair can finish: the legacy flow never indexes push-only pairs. */
function portable(ctx: TaskContext, settings: SearchSettingsRecord, pairId: number): boolean {
  if (settings.use_port_flow) return true;
  const pair = ctx.store.pairs.get(pairId);
  const source =
    pair === undefined ? undefined : ctx.store.connectors.get(pair.connector_id)?.source;
  return source !== undefined && legacyIndexesSource(source);
}

/** Copies a pair's documents into the target index (a port, or a legacy connector re-run). */
function copyPair(ctx: TaskContext, pairId: number, source: number, target: number): void {
  const { store, writer } = ctx;
  const snapshot = writer.snapshot();
  for (const seq of store.documents.ofPairs([pairId])) {
    const doc = store.documents.bySeq(seq);
    if (doc !== undefined) writer.port(source, target, doc, snapshot);
  }
}

/** Swaps FUTURE in: the old index becomes PAST (kept while `instant` ports back-fill from it). */
function swap(ctx: TaskContext, future: SearchSettingsRecord): void {
  const { store } = ctx;
  const present = store.searchSettings.present();
  const backfill =
    future.use_port_flow &&
    store.searchSettings.ports(future.id).some((p) => p.status !== 'completed');
  store.transaction(() => {
    store.searchSettings.swap(future.id, present.id);
    store.settingsChanged();
    store.searchIndex.mirrorPresent();
    if (legacyInstantDropsDocuments(future.switchover_type, future.use_port_flow)) {
      store.documents.deleteAll();
    }
    if (!backfill) store.searchIndex.dropIndex(present.id);
  });
}

/** Starts a switch (`SwitchInProgressError` while one runs); its new settings. */
export function startSwitch(ctx: TaskContext, request: SwitchRequest): SearchSettingsRecord {
  const { store } = ctx;
  if (portTarget(ctx) !== undefined) {
    throw new SwitchInProgressError('a model switch is already in progress');
  }
  const present = store.searchSettings.present();
  const switchover = request.switchover_type ?? 'reindex';
  const portFlow = request.use_port_flow ?? true;
  const id = store.searchSettings.startFuture({
    model_name: request.model_name ?? `${present.model_name}-next`,
    model_dim: request.model_dim ?? present.model_dim,
    switchover_type: switchover,
    use_port_flow: portFlow,
  });
  const scope = store.pairs
    .list()
    .filter((p) => inPortScope(p.status, switchover))
    .filter((p) => portFlow || p.id !== DEFAULT_CC_PAIR_ID)
    .map((p) => p.id);
  store.searchSettings.addPorts(id, scope);
  store.settingsChanged();
  const future = store.searchSettings.future();
  if (future === undefined) throw new Error('the new settings were not stored');
  if (!swapWaitsForPorts(switchover)) swap(ctx, future);
  return future;
}

/** Ends every port now (the legacy flow's push-only pairs copy nothing) and swaps. */
export function finishSwitch(ctx: TaskContext, now: Date): boolean {
  const target = portTarget(ctx);
  if (target === undefined) return false;
  const { settings, source } = target;
  for (const port of ctx.store.searchSettings.ports(settings.id)) {
    if (port.status === 'completed') continue;
    if (portable(ctx, settings, port.cc_pair_id))
      copyPair(ctx, port.cc_pair_id, source, settings.id);
    ctx.store.searchSettings.setPort(settings.id, port.cc_pair_id, 'completed', now.toISOString());
  }
  settle(ctx, settings, source);
  return true;
}

/** Swaps a FUTURE whose ports are done; drops the old index once a back-fill is done. */
function settle(ctx: TaskContext, settings: SearchSettingsRecord, source: number): void {
  const done = ctx.store.searchSettings.ports(settings.id).every((p) => p.status === 'completed');
  if (!done) return;
  if (settings.status === 'FUTURE') swap(ctx, settings);
  else ctx.store.searchIndex.dropIndex(source);
}

/** Moves the ports on, one at a time; the next time one is due. */
export function advanceSwitch(ctx: TaskContext, now: Date): number | undefined {
  const target = portTarget(ctx);
  if (target === undefined) return undefined;
  const { settings, source } = target;
  const { store, timing } = ctx;
  const ports = store.searchSettings.ports(settings.id);
  const running = ports.find((p) => p.status === 'in_progress');
  if (running !== undefined) {
    const due = Date.parse(running.time_started ?? now.toISOString()) + timing.portMs;
    if (now.getTime() < due) return due;
    copyPair(ctx, running.cc_pair_id, source, settings.id);
    store.searchSettings.setPort(
      settings.id,
      running.cc_pair_id,
      'completed',
      running.time_started,
    );
    settle(ctx, settings, source);
    return now.getTime();
  }
  const next = ports.find((p) => p.status === 'waiting' && portable(ctx, settings, p.cc_pair_id));
  if (next === undefined) {
    settle(ctx, settings, source);
    return undefined;
  }
  store.searchSettings.setPort(settings.id, next.cc_pair_id, 'in_progress', now.toISOString());
  return earliest(undefined, now.getTime() + timing.portMs);
}
