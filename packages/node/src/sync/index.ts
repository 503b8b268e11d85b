/** `kis.sync`: the plan (plan.ts), then the run that carries it out (run.ts). */
import type { KisClient } from '../../client.js';
import type { SyncItem, SyncOptions, SyncSession } from '../../sync.js';
import { planSync } from './plan.js';
import { runSync } from './run.js';

export async function createSync(
  kis: KisClient,
  source: Iterable<SyncItem> | AsyncIterable<SyncItem>,
  options: SyncOptions,
): Promise<SyncSession> {
  if (typeof options !== 'object' || options === null || !Number.isInteger(options.ccPairId)) {
    throw new TypeError('sync: options.ccPairId must be an integer');
  }
  const planned = await planSync(kis, source, options);
  return { plan: planned.plan, run: () => runSync(kis, planned, options) };
}
