import { createRequire } from 'node:module';
import { closeValues } from '@kis/client';
import { PROFILES, profileAcceptsAccessType } from '@kis/rules';
import { UsageError } from './errors.js';

/**
 * Enumerations read from the bundled spec (`@kis/spec/openapi.json`), the single source of truth:
 * never a hand-typed copy. Loaded on first use.
 */
interface Spec {
  components?: { schemas?: Record<string, { enum?: unknown[] }> };
}

let spec: Spec | undefined;

function schemaEnum(name: string): readonly string[] {
  spec ??= createRequire(import.meta.url)('@kis/spec/openapi.json') as Spec;
  const values = spec.components?.schemas?.[name]?.enum;
  if (!Array.isArray(values) || values.length === 0) {
    throw new Error(`@kis/spec: components.schemas.${name}.enum is missing`);
  }
  return values.filter((v): v is string => typeof v === 'string');
}

/** The `DocumentSource` values (60: every release's), in the spec's order. */
export function documentSources(): readonly string[] {
  return schemaEnum('DocumentSource');
}

/** `InputType` values. */
export function inputTypes(): readonly string[] {
  return schemaEnum('InputType');
}

/**
 * `AccessType` values as clients send them: those every server takes (the rule book's
 * `profileAcceptsAccessType`: deployed servers refuse the seed's `PUBLIC`, which the spec admits).
 */
export function accessTypes(): readonly string[] {
  return schemaEnum('AccessType').filter((v) =>
    PROFILES.every((profile) => profileAcceptsAccessType(profile, v)),
  );
}

/**
 * Checks `value` against an enumeration (case-insensitively; returns the canonical spelling).
 * The error names the flag, the bad value, the close values and where to see them all.
 */
export function checkEnum(
  flag: string,
  value: string,
  values: readonly string[],
  options: { what: string; allHint?: string },
): string {
  const exact =
    values.find((v) => v === value) ?? values.find((v) => v.toLowerCase() === value.toLowerCase());
  if (exact !== undefined) return exact;
  const close = closeValues(value, values);
  const hint = close.length > 0 ? `; did you mean ${close.join(', ')}?` : '';
  const all =
    values.length <= 8
      ? ` (expected one of: ${values.join(', ')})`
      : options.allHint
        ? ` (${options.allHint})`
        : '';
  throw new UsageError(`${flag}: unknown ${options.what} "${value}"${hint}${all}`);
}

/** Validates a `--source` value against `DocumentSource`. */
export function checkSource(flag: string, value: string): string {
  return checkEnum(flag, value, documentSources(), {
    what: 'source',
    allHint: '`kis sources` lists all values',
  });
}
