/**
 * `verifyPair`: whether a pair's documents are on the server, in the index, findable and seen by
 * the right keys, checked one document at a time with the client's calls (README, "Verify").
 * The engine loads on first use: apps that only ingest never load it.
 */
import { prepareIngestion } from './internal/bulk/prepare.js';
import { isItem } from './internal/bulk/source.js';
import type { KisClient } from './kis-client.js';
import { VERIFY_CHECKS, type VerifyOptions, type VerifyRun } from './verify-types.js';

/**
 * Checks the documents of a pair (or of `source` against the pair): present in its listing,
 * indexed, findable by admin search, and with `as`, visible to that key exactly as its pairs
 * grant it. Rejects at once on bad options; the run's summary rejects when the server or a key
 * refuses every check (a rejected key, no such route, no vector index).
 */
export async function verifyPair(kis: KisClient, options: VerifyOptions): Promise<VerifyRun> {
  const { startVerify } = await import('./internal/verify/run.js');
  // handed to the engine, not imported by it: code both sides import leaves the chunk that
  // `import '@kis/client'` loads for one of its own (scripts/size.mjs)
  return startVerify(kis, options, { prepareIngestion, isItem, checks: VERIFY_CHECKS });
}
