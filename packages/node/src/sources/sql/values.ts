/**
 * Column values as a document takes them: text, metadata strings, an ISO time. Drivers give
 * strings, numbers, booleans, arrays, JSON objects and bytes; dates come as the database's text.
 */

/** A value as text: bytes as UTF-8, JSON as JSON, lists one item a line; null stays null. */
export function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (Array.isArray(value)) return value.map((v) => textOf(v) ?? '').join('\n');
  return JSON.stringify(value);
}

/** A metadata value: a string, or a list of strings for an array column; null: left out. */
export function metadataOf(value: unknown): string | string[] | null {
  if (Array.isArray(value)) return value.flatMap((v) => (v === null ? [] : [textOf(v) as string]));
  return textOf(value);
}

const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * A date or time column's value as an ISO 8601 UTC time, or undefined for anything else (a
 * version number can be a cursor without being a date). Without an offset it is read as UTC, as
 * servers read `doc_updated_at`.
 */
export function isoTimeOf(value: unknown): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (typeof value !== 'string') return undefined;
  const m = DATE_TIME.exec(value.trim());
  if (!m) return undefined;
  const [, day, time, zone] = m;
  let offset = zone ?? 'Z';
  if (offset !== 'Z') {
    const digits = offset.slice(1).replace(':', '');
    offset = `${offset[0]}${digits.slice(0, 2)}:${digits.slice(2) || '00'}`;
  }
  const parsed = new Date(`${day}T${time ?? '00:00:00'}${offset}`);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed.toISOString();
}

/** JSON of row values for a fingerprint (bigints as text, bytes as base64). */
export function stableJson(values: readonly unknown[]): string {
  return JSON.stringify(values, (_key, value: unknown) => {
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
    return value;
  });
}
