/**
 * The doctor's checks of what can take pushed documents away: pairs whose prune would delete
 * documents (a file connector lists only its `file_locations`), failing when the server prunes
 * them on its own, and a model switch in progress (its legacy flow leaves pushed documents out of
 * the new index unless they are pushed again).
 */
import { isRouteNotFound, pruneListing } from '@kis/rules';
import type { DoctorCheck } from '../doctor.js';
import { APIError, FeatureUnavailableError } from '../errors.js';
import type { KisClient } from '../kis-client.js';
import type { ModelSwitchNotice } from '../model-switch.js';
import type { PrunePreview } from '../prune-preview.js';
import type { CallControl } from '../request-options.js';

/** A route this server does not have: nothing to check there. */
const notServed = (err: unknown) =>
  FeatureUnavailableError.isInstance(err) ||
  (APIError.isInstance(err) && isRouteNotFound(err.status, err.body));

const why = (err: unknown) => String((err as Error)?.message ?? err);

/** The `model switch` check, and the switch when one runs (undefined: not served here). */
export async function modelSwitchCheck(
  kis: Pick<KisClient, 'searchSettings'>,
  control: CallControl,
): Promise<{ check: DoctorCheck; notice: ModelSwitchNotice | null } | undefined> {
  let notice: ModelSwitchNotice | null;
  try {
    notice = await kis.searchSettings.switchInProgress({ ...control });
  } catch (err) {
    if (notServed(err)) return undefined;
    const check = {
      name: 'model switch',
      ok: true,
      warning: true,
      detail: `not checked: ${why(err)}`,
    };
    return { check, notice: null };
  }
  if (notice === null) {
    return { check: { name: 'model switch', ok: true, detail: 'none in progress' }, notice };
  }
  const fix =
    notice.pushedDocuments === 'push-again'
      ? 'push the documents of every pair again before the swap, so the new index has them'
      : undefined;
  return {
    check: { name: 'model switch', ok: true, warning: true, detail: notice.message, fix },
    notice,
  };
}

/** One pair whose prune would delete documents: failed when the server prunes it on its own. */
function riskCheck(p: PrunePreview): DoctorCheck {
  const files =
    p.listing === 'file-locations' ? 'a file connector' : `a ${p.connector.source} connector`;
  const label = `pair ${p.ccPairId}${p.pairName ? ` "${p.pairName}"` : ''} (${files}, connector ${p.connector.id})`;
  const auto =
    p.autoPruneAt === null
      ? ''
      : `; the server prunes it on its own (prune_freq ${p.pruneFreq} s), next at ${p.autoPruneAt}`;
  const detail = `${label}: a prune deletes ${p.removes} of its ${p.documents} document(s), those its connector does not list${auto}`;
  const move = 'push into a pair of an ingestion_api connector, which no prune empties';
  return p.autoPruneAt === null
    ? {
        name: 'prune risk',
        ok: true,
        warning: true,
        detail,
        fix: `${move}, and do not prune this one`,
      }
    : {
        name: 'prune risk',
        ok: false,
        detail,
        fix: `set the connector's prune_freq to 0 (never), then ${move}`,
      };
}

/**
 * A check per pair whose prune would delete documents its connector does not list (file
 * connectors: kis can tell), or one saying there is none; the previews of those pairs.
 */
export async function pruneRiskChecks(
  kis: Pick<KisClient, 'pairs'>,
  control: CallControl,
): Promise<{ checks: DoctorCheck[]; risks: PrunePreview[] }> {
  const risks: PrunePreview[] = [];
  let checked = 0;
  try {
    const pairs = await kis.pairs.list({ ...control });
    for (const pair of pairs) {
      if (pruneListing(pair.connector.source) !== 'file-locations') continue;
      checked++;
      const preview = await kis.pairs.prunePreview(pair.cc_pair_id, { ...control });
      if ((preview.removes ?? 0) > 0) risks.push(preview);
    }
  } catch (err) {
    if (notServed(err)) return { checks: [], risks };
    const detail = `not checked: ${why(err)}`;
    return { checks: [{ name: 'prune risk', ok: true, warning: true, detail }], risks };
  }
  if (risks.length > 0) return { checks: risks.map(riskCheck), risks };
  const detail = `no pair holds documents a prune would delete (${checked} file pair(s) checked)`;
  return { checks: [{ name: 'prune risk', ok: true, detail }], risks };
}
