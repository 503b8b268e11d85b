/**
 * Before a command uses the pair `--cc-pair` names (`kis ingest` and `kis sync` before their first
 * document, `kis docs list` before the listing): the pair exists, the key may reach it, and (for
 * what sends documents) it is not being deleted. Without this, every file is sent and fails on its
 * own, a listing answers each server's own way (404, 403, an empty list), and on deployed servers
 * the first refusal is blamed on the key.
 */
import { APIError, type KisClient } from '@kis/client';
import { isRouteNotFound } from '@kis/rules';
import { UsageError } from './errors.js';
import { pairCallError } from './pair-errors.js';
import { pairLabel } from './pair-ref.js';

/** The commands that take `--cc-pair`, and what each does with the pair. */
const USES = {
  ingest: { doing: 'kis ingest into', purpose: 'ingestDocument', sends: true },
  sync: { doing: 'kis sync into', purpose: 'ingestDocument', sends: true },
  'docs list': { doing: 'kis docs list of', purpose: 'listConnectorDocuments', sends: false },
  verify: { doing: 'kis verify of', purpose: 'listConnectorDocuments', sends: false },
  'verify --repair': { doing: 'kis verify --repair of', purpose: 'ingestDocument', sends: true },
} as const;

export type PairCommand = keyof typeof USES;

/**
 * Checks the pair `ccPairId` once (nothing to check without one, or for a dry run, which has no
 * server): one error naming it, exit 2 when it is unknown (or, for a command that sends documents,
 * being deleted), exit 3 when the key may not use it. A server without the pair lookup (one that
 * follows the seed) is not asked.
 */
export async function checkPair(
  client: KisClient,
  ccPairId: number | undefined,
  baseUrl: string | undefined,
  command: PairCommand,
): Promise<void> {
  if (ccPairId === undefined || baseUrl === undefined) return;
  const use = USES[command];
  let pair: Awaited<ReturnType<KisClient['pairs']['get']>>;
  try {
    pair = await client.pairs.get(ccPairId);
  } catch (error) {
    if (APIError.isInstance(error) && isRouteNotFound(error.status, error.body)) return;
    throw (
      pairCallError(error, {
        operationId: 'getCcPair',
        doing: `${use.doing} pair ${ccPairId}`,
        ccPairId,
        baseUrl,
        purpose: use.purpose,
        label: `--cc-pair ${ccPairId}`,
      }) ?? error
    );
  }
  if (use.sends && pair.status === 'DELETING') {
    throw new UsageError(
      `--cc-pair ${ccPairId}: ${pairLabel(pair)} is being deleted; documents sent to it would be removed with it`,
    );
  }
}
