// How structured values live in TEXT columns: JSON written with JSON.stringify, read back as is.

/** A JSON object as the store keeps it. */
export type JsonObject = Record<string, unknown>;

/** A JSON column's value (written by this store, so it parses to `T`). */
export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** A nullable JSON column's value. */
export function parseJsonOrNull<T>(text: string | null): T | null {
  return text === null ? null : parseJson<T>(text);
}

/** The JSON text of a value, or null for null and undefined. */
export function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
