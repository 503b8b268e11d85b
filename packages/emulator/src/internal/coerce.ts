// Pydantic v2's lax mode on JSON input, as deployed servers read request bodies: a pass over the
// value guided by the spec's schema that turns what pydantic would accept into the value it would
// store (`"5"` → 5 for an integer, `"yes"` → true for a boolean, a Unix time → an ISO date-time),
// before the Ajv validators judge it. Nothing here is per field: the schema decides. Model-level
// "before" validators that a schema cannot express are passed in by JSON pointer.
import { isDateTime } from '@kis/rules';
import type { SpecValidators } from './validation.js';

/** A pydantic `mode="before"` validator: returns the value to validate, or throws. */
export type BeforeValidator = (value: unknown) => unknown;

type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonTypeMatches(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return false;
  }
}

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

function toInteger(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'string' ? intFromText(value) : undefined;
}

function toNumber(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const text = value.trim();
    if (FLOAT_TEXT.test(text)) return Number(text.replace(/_/g, ''));
  }
  return undefined;
}

function toBoolean(value: unknown): unknown {
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

function toDateTime(value: unknown): unknown {
  if (typeof value === 'number') return unixToDateTime(value);
  if (typeof value === 'string' && !isDateTime(value) && TIMESTAMP_TEXT.test(value)) {
    return unixToDateTime(Number(value));
  }
  return undefined;
}

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.map(String) : [];
}

/** Lax coercion of request values by their schema (see the file comment). */
export class LaxCoercer {
  constructor(
    private readonly validators: SpecValidators,
    /** Before-validators by the JSON pointer of the schema they belong to. */
    private readonly before: ReadonlyMap<string, BeforeValidator> = new Map(),
  ) {}

  /** The value as a lax server reads it for `schema` (the same object when nothing changes). */
  coerce(schema: unknown, value: unknown, depth = 0): unknown {
    const s = this.validators.resolve(schema);
    if (!isObject(s) || depth > 64) return value;
    let v = value;
    const pointer = this.validators.pointerOf(s);
    const hook = pointer === undefined ? undefined : this.before.get(pointer);
    if (hook !== undefined) v = hook(v);
    if (Array.isArray(s.allOf)) for (const part of s.allOf) v = this.coerce(part, v, depth + 1);
    const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
    if (union !== undefined) return this.coerceUnion(union, v, depth);
    const types = typesOf(s);
    if (types.length === 0 || types.some((t) => jsonTypeMatches(v, t))) {
      return this.coerceMatching(s, v, depth);
    }
    for (const type of types) {
      const converted = this.convert(s, type, v);
      if (converted !== undefined) return converted;
    }
    return v;
  }

  /** Pydantic's smart union: a branch the value already fits wins; else the first that fits once coerced. */
  private coerceUnion(branches: unknown[], value: unknown, depth: number): unknown {
    for (const branch of branches) {
      if (this.validators.validatorOf(branch)(value)) return value;
    }
    for (const branch of branches) {
      const coerced = this.coerce(branch, value, depth + 1);
      if (coerced !== value && this.validators.validatorOf(branch)(coerced)) return coerced;
    }
    return value;
  }

  /** A value of the schema's JSON type: its parts are coerced; a numeric date-time text is converted. */
  private coerceMatching(s: Schema, value: unknown, depth: number): unknown {
    if (typeof value === 'string' && s.format === 'date-time') {
      return toDateTime(value) ?? value;
    }
    if (Array.isArray(value)) return this.coerceItems(s, value, depth);
    if (isObject(value)) return this.coerceProperties(s, value, depth);
    return value;
  }

  private convert(s: Schema, type: string, value: unknown): unknown {
    switch (type) {
      case 'integer':
        return toInteger(value);
      case 'number':
        return toNumber(value);
      case 'boolean':
        return toBoolean(value);
      case 'string':
        // str fields take only strings (pydantic v2 does not turn numbers into text)
        return s.format === 'date-time' ? toDateTime(value) : undefined;
      default:
        return undefined;
    }
  }

  private coerceItems(s: Schema, value: unknown[], depth: number): unknown[] {
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    if (s.items === undefined && prefix.length === 0) return value;
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const itemSchema = i < prefix.length ? prefix[i] : s.items;
      if (itemSchema === undefined || itemSchema === true) return;
      const coerced = this.coerce(itemSchema, item, depth + 1);
      if (coerced !== item) {
        out ??= [...value];
        out[i] = coerced;
      }
    });
    return out ?? value;
  }

  private coerceProperties(
    s: Schema,
    value: Record<string, unknown>,
    depth: number,
  ): Record<string, unknown> {
    const properties = isObject(s.properties) ? s.properties : {};
    const rest = isObject(s.additionalProperties) ? s.additionalProperties : undefined;
    let out: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const propertySchema = Object.hasOwn(properties, key) ? properties[key] : rest;
      if (propertySchema === undefined) continue;
      const coerced = this.coerce(propertySchema, item, depth + 1);
      if (coerced !== item) {
        out ??= { ...value };
        out[key] = coerced;
      }
    }
    return out ?? value;
  }
}
