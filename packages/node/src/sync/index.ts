/**
 * `sync(kis, source, options)`: makes pair `ccPairId` equal to `source` (documents with ids).
 * Resolves with the plan (create, update, unchanged, delete) once the source is read; `run()`
 * carries it out (plan.ts, then run.ts; README, "Sync").
 */
import type { KisClient } from '@kis/client';
import { planSync } from './plan.js';
import { runSync } from './run.js';
import type { SyncItem, SyncOptions, SyncSession } from './types.js';

export async function sync(
  kis: KisClient,
  source: Iterable<SyncItem> | AsyncIterable<SyncItem>,
  options: SyncOptions,
): Promise<SyncSession> {
  if (typeof options !== 'object' || options === null || !Number.isInteger(options.ccPairId)) {
    throw new TypeError('sync: options.ccPairId must be an integer');
  }
  const planned = await planSync(kis, source, options);
  return { plan: planned.plan, run: (how) => runSync(kis, planned, options, how) };
}
