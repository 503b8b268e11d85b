/**
 * Which connector updates of a plan lead to prunes that delete documents: an update that leaves
 * automatic prunes on (`prune_freq` above 0) for a connector whose listing lacks documents its
 * pairs hold (a file connector lists only its `file_locations`: every pushed document goes). The
 * server prunes such a pair on its own, so `apply` carries the update out only when told to
 * (`deletePushedDocuments`). Kept apart from the planner: other changes plan without it.
 */
import type {
  ConnectorCreateRequest,
  ConnectorStatus,
  KisClient,
  RequestOptions,
} from '@kis/client';
import { prunedIds, prunesOnItsOwn } from '@kis/rules';
import type { PruneRisk } from './types.js';

/** A planned connector update: the connector's id and the body `apply` sends. */
export interface ConnectorUpdate {
  id: number;
  body: ConnectorCreateRequest;
}

/** The risks of the planned connector `updates`, for the pairs the server has. */
export async function pruneRisksOf(
  kis: KisClient,
  updates: Iterable<ConnectorUpdate>,
  pairs: readonly ConnectorStatus[],
  request: RequestOptions,
): Promise<PruneRisk[]> {
  const risks: PruneRisk[] = [];
  for (const step of updates) {
    if (!prunesOnItsOwn(step.body.prune_freq)) continue;
    const { source, connector_specific_config: config } = step.body;
    for (const pair of pairs.filter((p) => p.connector.id === step.id)) {
      const listing = await kis.ingestion.listConnectorDocuments(pair.cc_pair_id, request);
      const removed = prunedIds(
        source,
        config,
        listing.map((d) => d.document_id),
      );
      if (removed === undefined || removed.length === 0) continue;
      risks.push({
        ccPairId: pair.cc_pair_id,
        connector: step.body.name,
        source,
        pruneFreq: step.body.prune_freq as number,
        documents: listing.length,
        removes: removed.length,
      });
    }
  }
  return risks;
}

/** Why `apply` refuses a plan with `risks`, in one line. */
export function pruneRiskText(risks: readonly PruneRisk[]): string {
  const removes = risks.reduce((n, r) => n + r.removes, 0);
  const pairs = risks
    .map((r) => `pair ${r.ccPairId} of "${r.connector}" (${r.removes} of ${r.documents})`)
    .join(', ');
  return `the plan turns on automatic prunes that would delete ${removes} document(s) its connectors do not list: ${pairs}`;
}
