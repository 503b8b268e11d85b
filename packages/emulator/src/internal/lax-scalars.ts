// Pydantic v2's lax reading of one scalar from JSON or text: the integers, numbers, booleans and
// date-times it accepts in place of the JSON type a schema names. Undefined means "not accepted".
// Both the schema-guided pass (`coerce.ts`) and parameter parsing (`validation.ts`) use it.
import { isDateTime } from '@kis/rules';

// Python's int() spelling: sign, digits with single underscores between them, an optional
// `.000` tail (pydantic strips it), surrounding whitespace.
const INT_TEXT = /^[+-]?\d+(?:_\d+)*(?:\.0+)?$/;
const FLOAT_TEXT =
  /^[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+)?$/;
const TIMESTAMP_TEXT = /^-?\d+(?:\.\d+)?$/;
const FALSE_TEXT = new Set(['0', 'f', 'n', 'no', 'off', 'false']);
const TRUE_TEXT = new Set(['1', 't', 'y', 'on', 'yes', 'true']);

/** Seconds beyond which a Unix time is read as milliseconds (pydantic's speedate). */
const MILLISECONDS_ABOVE = 2e10;
const MIN_SECONDS = -62_135_596_800; // 0001-01-01T00:00:00Z
const MAX_SECONDS = 253_402_300_799; // 9999-12-31T23:59:59Z

/** An integer written as pydantic reads one from text (`" 5 "`, `"+5"`, `"5.00"`, `"1_000"`). */
export function intFromText(value: string): number | undefined {
  const text = value.trim();
  return INT_TEXT.test(text) ? Number(text.replace(/_/g, '').replace(/\.0+$/, '')) : undefined;
}

/** An integer from a boolean or integer text. */
export function toInteger(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'string' ? intFromText(value) : undefined;
}

/** A number from a boolean or number text (`"1_000.5"`, `"1e3"`). */
export function toNumber(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const text = value.trim();
    if (FLOAT_TEXT.test(text)) return Number(text.replace(/_/g, ''));
  }
  return undefined;
}

/** A boolean from 0/1 or the texts pydantic accepts (`"yes"`, `"off"`, any case). */
export function toBoolean(value: unknown): unknown {
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (FALSE_TEXT.has(lower)) return false;
    if (TRUE_TEXT.has(lower)) return true;
  }
  return undefined;
}

/** A Unix time (seconds, or milliseconds above 2e10) as an RFC 3339 UTC date-time. */
function unixToDateTime(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const seconds = Math.abs(value) > MILLISECONDS_ABOVE ? value / 1000 : value;
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) return undefined;
  const whole = Math.floor(seconds);
  const micros = Math.round((seconds - whole) * 1e6);
  const base = new Date(whole * 1000).toISOString().slice(0, 19);
  return micros === 0 ? `${base}Z` : `${base}.${String(micros).padStart(6, '0')}Z`;
}

/** An RFC 3339 date-time from a Unix time, as a number or as text. */
export function toDateTime(value: unknown): unknown {
  if (typeof value === 'number') return unixToDateTime(value);
  if (typeof value === 'string' && !isDateTime(value) && TIMESTAMP_TEXT.test(value)) {
    return unixToDateTime(Number(value));
  }
  return undefined;
}
