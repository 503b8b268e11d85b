/**
 * What a model switch in progress means for pushed documents (the rule book's `model-switch.ts`):
 * the port flow copies every in-scope pair's documents, pushed ones included, into the new index;
 * the legacy flow runs connectors instead, which never produce pushed documents, so they reach
 * the new index only when pushed again before the swap. Meanwhile pushes write both indexes and
 * searches read the current one.
 */
import {
  legacyInstantDropsDocuments,
  SWITCHOVER_TYPES,
  type SwitchoverType,
  swapWaitsForPorts,
  switchFlow,
} from '@kis/rules';
import type { ModelSwitchNotice } from '../model-switch.js';
import type { SearchSettings } from '../types.js';

const isSwitchover = (value: unknown): value is SwitchoverType =>
  (SWITCHOVER_TYPES as readonly unknown[]).includes(value);

/** When the new index replaces the current one, in words. */
function swapText(switchover: SwitchoverType | null, port: boolean): string {
  if (switchover !== null && !swapWaitsForPorts(switchover)) {
    return port
      ? 'the new index answers searches at once and is filled pair by pair, so pushed documents may be missing from search until their pair is copied'
      : 'the new index answers searches at once';
  }
  return 'searches read the current index until the swap';
}

/** The notice of a switch to `settings` on a server of release `version`. */
export function modelSwitchNotice(
  settings: SearchSettings,
  version: string | undefined,
): ModelSwitchNotice {
  const flow = switchFlow(settings.use_port_flow, version);
  const switchover = isSwitchover(settings.switchover_type) ? settings.switchover_type : null;
  const port = flow === 'port';
  const about = `a switch to the embedding model "${settings.model_name}" is in progress (${flow} flow${switchover ? `, switchover ${switchover}` : ''})`;
  const scope =
    switchover === 'active_only'
      ? 'active pairs (paused ones are left out)'
      : 'every pair but deleting and invalid ones';
  const pushed = port
    ? `the documents of ${scope}, pushed ones included, are copied into the new index`
    : 'the new index is built by running connectors, which never produce pushed documents: they reach it only when pushed again before the swap';
  const drops =
    switchover !== null && legacyInstantDropsDocuments(switchover, port)
      ? '; its instant swap deletes every document row'
      : '';
  return {
    settings,
    flow,
    switchover,
    pushedDocuments: port ? 'ported' : 'push-again',
    message: `${about}: ${pushed}; pushes meanwhile write both indexes, and ${swapText(switchover, port)}${drops}`,
  };
}
