/** Credentials as `kis credential` prints them: `credential_json` values are secrets. */

/** A credential as printed: `credential_json` values hidden (they are secrets), keys kept. */
export function redactCredential(record: Record<string, unknown>): Record<string, unknown> {
  const json = record.credential_json;
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { ...record };
  return {
    ...record,
    credential_json: Object.fromEntries(Object.keys(json).map((k) => [k, '[REDACTED]'])),
  };
}
