/**
 * Before `kis ingest` and `kis sync` send their first document: the pair named by `--cc-pair`
 * exists, the key may reach it, and it is not being deleted. Without this, every file is sent
 * and fails on its own (or, on deployed servers, the first refusal is blamed on the key).
 */
import { APIError, type KisClient } from '@kis/client';
import { isRouteNotFound } from '@kis/rules';
import { UsageError } from './errors.js';
import { pairCallError } from './pair-errors.js';
import { pairLabel } from './pair-ref.js';

/**
 * Checks the pair `ccPairId` once (nothing to check without one, or for a dry run, which has no
 * server): one error naming it, exit 2 when it is unknown or being deleted, exit 3 when the key
 * may not use it. A server without the pair lookup (one that follows the seed) is not asked.
 */
export async function checkPairBeforeRun(
  client: KisClient,
  ccPairId: number | undefined,
  baseUrl: string | undefined,
  command: 'ingest' | 'sync',
): Promise<void> {
  if (ccPairId === undefined || baseUrl === undefined) return;
  let pair: Awaited<ReturnType<KisClient['pairs']['get']>>;
  try {
    pair = await client.pairs.get(ccPairId);
  } catch (error) {
    if (APIError.isInstance(error) && isRouteNotFound(error.status, error.body)) return;
    throw (
      pairCallError(error, {
        operationId: 'getCcPair',
        doing: `kis ${command} into pair ${ccPairId}`,
        ccPairId,
        baseUrl,
        purpose: 'ingestDocument',
        label: `--cc-pair ${ccPairId}`,
      }) ?? error
    );
  }
  if (pair.status === 'DELETING') {
    throw new UsageError(
      `--cc-pair ${ccPairId}: ${pairLabel(pair)} is being deleted; documents sent to it would be removed with it`,
    );
  }
}
