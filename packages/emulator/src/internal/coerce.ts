// Pydantic v2's lax mode on JSON input, as deployed servers read request bodies: a pass over the
// value guided by the spec's schema that turns what pydantic would accept into the value it would
// store (`"5"` → 5 for an integer, `"yes"` → true for a boolean, a Unix time → an ISO date-time),
// before the Ajv validators judge it. Nothing here is per field: the schema decides. Model-level
// "before" validators that a schema cannot express are passed in by JSON pointer.
import { toBoolean, toDateTime, toInteger, toNumber } from './lax-scalars.js';
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
