/**
 * Switching the embedding model (docs/deployed-servers.md, "Model switch";
 * `server/manage/search_settings.py`, `db/swap_index.py`, `background/celery/tasks/port/tasks.py`):
 * new settings build a FUTURE index beside the PRESENT one. Since v4.4.0 a switch ports every
 * in-scope pair's documents into it, pushed ones included; the legacy flow (`use_port_flow`
 * false) re-runs connectors instead and skips push-only pairs. Searches and document checks
 * read PRESENT only; pushes meanwhile write both.
 */

import { releaseHas } from './server-versions.js';

export const SWITCHOVER_TYPES = Object.freeze(['reindex', 'active_only', 'instant'] as const);

export type SwitchoverType = (typeof SWITCHOVER_TYPES)[number];

/** The statuses of search settings: the live index, the one being built, the ones replaced. */
export const SEARCH_SETTINGS_STATUSES = Object.freeze(['PRESENT', 'FUTURE', 'PAST'] as const);

/**
 * True when a pair of this status is ported (`db/connector_credential_pair.py:888-935`):
 * `SCHEDULED`, `INITIAL_INDEXING`, `ACTIVE`, and `PAUSED` unless the switchover is `active_only`.
 * `INVALID` and `DELETING` pairs are left out.
 */
export function inPortScope(status: string, switchover: SwitchoverType): boolean {
  if (status === 'PAUSED') return switchover !== 'active_only';
  return status === 'SCHEDULED' || status === 'INITIAL_INDEXING' || status === 'ACTIVE';
}

/** How a switch builds its new index: by porting documents, or by re-running connectors. */
export type SwitchFlow = 'port' | 'legacy';

/**
 * The flow of a switch: its `use_port_flow` when the settings say, else the server's release
 * (every switch made since v4.4.0 ports; `version` unreadable: the newest).
 */
export function switchFlow(
  usePortFlow: boolean | null | undefined,
  version: string | undefined,
): SwitchFlow {
  if (typeof usePortFlow === 'boolean') return usePortFlow ? 'port' : 'legacy';
  return releaseHas('portFlow', version) ? 'port' : 'legacy';
}

/**
 * True when the legacy flow builds the new index for a pair of this connector source: push-only
 * (`ingestion_api`) pairs are never indexed (`docprocessing/utils.py:256-262`), so their documents
 * reach the new index only if pushed again during the switch.
 */
export function legacyIndexesSource(source: string): boolean {
  return source !== 'ingestion_api';
}

/**
 * True when pushed documents reach a switch's new index without being pushed again: the port flow
 * copies them; the legacy flow indexes only what connectors enumerate, and no connector enumerates
 * a pushed document (push-only pairs are never indexed, `docprocessing/utils.py:256-262`; a file
 * connector lists its `file_locations`, `connectors/file/connector.py:282-373`).
 */
export function switchKeepsPushed(usePortFlow: boolean): boolean {
  return usePortFlow;
}

/**
 * True when the swap waits for every in-scope pair: `reindex` and `active_only` swap once all
 * ports succeeded; `instant` swaps at once and keeps back-filling the live index
 * (`swap_index.py:255-302`).
 */
export function swapWaitsForPorts(switchover: SwitchoverType): boolean {
  return switchover !== 'instant';
}

/** A legacy `instant` swap also deletes every document row (`swap_index.py:304-313`). */
export function legacyInstantDropsDocuments(
  switchover: SwitchoverType,
  portFlow: boolean,
): boolean {
  return !portFlow && switchover === 'instant';
}

/** `reindex-progress` when no port runs (`db/port_attempt.py:228-236`). */
export const NO_REINDEX_PROGRESS = Object.freeze({
  total: 0,
  waiting: 0,
  in_progress: 0,
  completed: 0,
  failed: 0,
  paused: 0,
});
