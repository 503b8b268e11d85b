/**
 * `@kis/client` under Node (the package's `node` export condition): the same API as the
 * browser-safe entry, with clients that send over undici's `request` on a keep-alive `Agent`
 * unless given a `fetch` (node/undici-sender.ts says why), and calls made one at a time on
 * node:http with `callsOn: 'node:http'` (node/http-sender.ts).
 */
import { createKisClientWith } from './client.js';
import type { KisClient, KisClientOptions } from './kis-client.js';
import { createHttpSender } from './node/http-sender.js';
import { nodeSha256 } from './node/sha256.js';
import { createUndiciSender } from './node/undici-sender.js';

export { DocumentIdError, deriveDocumentId, normalizeDocumentId } from '@kis/rules';
export type {
  AccessGroup,
  DoctorAccess,
  DoctorCheck,
  DoctorKey,
  DoctorOptions,
  DoctorReport,
} from './doctor.js';
export * from './exports.js';

/**
 * Create a client (under Node: sending over undici unless `options.fetch` is given, the calls
 * made one at a time on node:http with `callsOn: 'node:http'`).
 */
export function createKisClient(options: KisClientOptions): KisClient {
  return createKisClientWith(options, {
    defaultSender: createUndiciSender,
    callSender: (o) => (o.callsOn === 'node:http' ? createHttpSender() : undefined),
    sha256: nodeSha256,
  });
}
