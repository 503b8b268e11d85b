/**
 * `access_type` as deployed servers take it: lower case only (`public`, `private`, `sync`); the
 * seed's example writes `PUBLIC`, which they answer with 422.
 */
import type { AccessType, ConnectorCredentialPairRequest } from '../types.js';

/** The access types deployed servers accept. */
export type PairAccessType = ConnectorCredentialPairRequest['access_type'];

/** The lower-case form of an access type; a TypeError naming the field for anything else. */
export function lowerAccess(value: AccessType): PairAccessType {
  const lower = typeof value === 'string' ? value.toLowerCase() : value;
  if (lower === 'public' || lower === 'private' || lower === 'sync') return lower;
  throw new TypeError(
    `access_type must be public, private or sync (got ${JSON.stringify(value) ?? String(value)})`,
  );
}
