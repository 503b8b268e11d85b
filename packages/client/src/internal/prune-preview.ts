/**
 * What a prune of a pair would remove, told before any prune: the pair's documents (its listing)
 * against what its connector lists, by the rule book's `prunedIds`. A file connector lists its
 * `file_locations` only, so a prune deletes every pushed document only that pair holds; an
 * `ingestion_api` connector cannot be listed, so its prune fails and removes nothing.
 */
import { autoPruneDueAt, prunedIds, pruneListing } from '@kis/rules';
import type { PrunePreview } from '../prune-preview.js';
import type { CcPairFullInfo, IngestedDocumentSummary } from '../types.js';

/** The preview of a prune of `pair`, whose listing is `documents`. */
export function previewPrune(
  pair: CcPairFullInfo,
  documents: readonly IngestedDocumentSummary[],
): PrunePreview {
  const { connector } = pair;
  const removed = prunedIds(
    connector.source,
    connector.connector_specific_config ?? {},
    documents.map((d) => d.document_id),
  );
  const due = autoPruneDueAt({
    prune_freq: connector.prune_freq,
    status: pair.status,
    last_pruned: pair.last_pruned ?? null,
    connector_created: connector.time_created,
    ever_indexed: pair.last_indexed != null,
  });
  return {
    ccPairId: pair.id,
    pairName: pair.name,
    connector: { id: connector.id, name: connector.name, source: connector.source },
    listing: pruneListing(connector.source),
    documents: documents.length,
    removes: removed === undefined ? null : removed.length,
    removedIds: removed ?? null,
    pruneFreq: connector.prune_freq,
    autoPruneAt: due === undefined ? null : new Date(due).toISOString(),
  };
}
