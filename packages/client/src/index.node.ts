/**
 * `@kis/client` under Node (the package's `node` export condition): the same API as the
 * browser-safe core, with clients that send over undici's pooled dispatcher unless given a
 * `fetch`. Node's `fetch` spends more CPU per call on a fast server (web streams, Headers,
 * AbortSignal bookkeeping), which bulk ingestion would pay per document.
 */
import { createKisClientWith, type KisClient, type KisClientOptions } from './client.js';
import { createUndiciSender } from './node/undici-sender.js';

export * from './index.js';

/** Create a client (under Node: sending over undici unless `options.fetch` is given). */
export function createKisClient(options: KisClientOptions): KisClient {
  return createKisClientWith(options, createUndiciSender, loadSync);
}

/** `kis.sync` on its own, without the rest of the workflows (see `createKisClientWith`). */
const loadSync = () => import('./internal/sync/index.js');
