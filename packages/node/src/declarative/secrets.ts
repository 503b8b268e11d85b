/**
 * Comparing a credential's values without keeping them: servers mask `credential_json` in their
 * answers (`@kis/rules`, `maskCredentialJson`), so a value is compared with the server's only
 * when the server shows it; otherwise with the fingerprint of what was sent before
 * (HMAC-SHA-256 under the records' salt, Web Crypto), or, with no record, it is unverified and
 * sent again.
 */

import { canonicalJson } from '@kis/client';
import { isMaskedValue } from '@kis/rules';
import type { FieldChange, SecretRecords } from './types.js';

const HEX = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The fingerprint of one key's value under `salt`. */
export async function fingerprint(salt: string, key: string, value: unknown): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('comparing secrets needs Web Crypto (globalThis.crypto.subtle)');
  const encode = (s: string) => new TextEncoder().encode(s) as BufferSource;
  const hmacKey = await subtle.importKey(
    'raw',
    encode(salt),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await subtle.sign('HMAC', hmacKey, encode(`${key}\u0000${canonicalJson(value)}`));
  return HEX(new Uint8Array(mac));
}

/** The fingerprints of every key of `json`. */
export async function fingerprints(
  salt: string,
  json: Record<string, unknown>,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(json)) out[key] = await fingerprint(salt, key, value);
  return out;
}

/** True when the server's value is shown (not masked), so it can be compared as it is. */
function shown(value: unknown): boolean {
  if (value === null || typeof value === 'boolean') return true;
  if (typeof value === 'string') return !isMaskedValue(value);
  return false;
}

/**
 * The keys of `desired` that differ from the server's credential, as secret field changes (no
 * values). `records` is what was sent before for this credential, if known.
 */
export async function credentialChanges(
  salt: string,
  desired: Record<string, unknown>,
  server: Record<string, unknown>,
  records: Record<string, string> | undefined,
): Promise<FieldChange[]> {
  const changes: FieldChange[] = [];
  for (const [key, value] of Object.entries(desired)) {
    const field = `credential_json.${key}`;
    if (!(key in server)) {
      changes.push({ field, secret: 'added' });
      continue;
    }
    const theirs = server[key];
    if (shown(theirs)) {
      if (canonicalJson(theirs) !== canonicalJson(value))
        changes.push({ field, secret: 'changed' });
      continue;
    }
    const record = records?.[key];
    if (record === undefined) changes.push({ field, secret: 'unverified' });
    else if (record !== (await fingerprint(salt, key, value)))
      changes.push({ field, secret: 'changed' });
  }
  return changes;
}

/** Records in memory (the default: nothing known, every given value is sent once). */
export function memoryRecords(): SecretRecords {
  const salt = HEX(globalThis.crypto.getRandomValues(new Uint8Array(16)));
  const byId = new Map<number, Record<string, string>>();
  return {
    salt: () => salt,
    get: (id) => byId.get(id),
    set: (id, fps) => void byId.set(id, fps),
    delete: (id) => void byId.delete(id),
  };
}
