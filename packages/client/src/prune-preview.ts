/** Types of `kis.pairs.prunePreview()`: what a prune of a pair would remove. Types only. */
import type { PruneListing } from '@kis/rules';
import type { SourceValue } from './types.js';

export interface PrunePreview {
  ccPairId: number;
  pairName: string | null;
  connector: { id: number; name: string; source: SourceValue };
  /**
   * What the connector lists, which a prune keeps: `file-locations` (a file connector: its
   * `file_locations`, none with `[]`), `fails` (`ingestion_api`: the prune fails and removes
   * nothing), `source` (what its source has, which kis cannot know).
   */
  listing: PruneListing;
  /** Documents the pair holds (its listing, `GET /svc-api/connector-docs/{id}`). */
  documents: number;
  /**
   * Documents a prune removes from the pair: each is deleted unless another pair holds it too.
   * Null when kis cannot tell (`listing: 'source'`).
   */
  removes: number | null;
  /** Their stored ids (null with `removes`). */
  removedIds: string[] | null;
  /** The connector's `prune_freq`: null or 0, no automatic prune. */
  pruneFreq: number | null;
  /** When the server prunes the pair on its own next (ISO 8601), or null when it never does. */
  autoPruneAt: string | null;
}
