/**
 * Connector config fields and credential keys by source, read from the spec's table
 * (`@kis/spec/connector-fields.json`, built from ConnectorConfigBySource and
 * CredentialJsonBySource), and `--set key=value` flags turned into typed values with them.
 * The config itself is checked by the client against the source's schema before any request.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { closeValues } from '@kis/client';
import type { ConnectorField, ConnectorFieldsTable, SourceFields } from '@kis/rules';
import { UsageError } from './errors.js';
import { fsReason, parseJsonText } from './structured.js';

let table: Record<string, SourceFields> | undefined;

/** The fields of `source`, or undefined for a source the spec has no schema for. */
export function sourceFields(source: string): SourceFields | undefined {
  table ??= (
    createRequire(import.meta.url)('@kis/spec/connector-fields.json') as ConnectorFieldsTable
  ).sources;
  return table[source];
}

/** Fields that belong to a choice of an exclusive group (never filled with their default). */
function groupFields(entry: SourceFields): Set<string> {
  return new Set(entry.groups.flatMap((g) => g.options.flatMap((o) => o.fields)));
}

const TRUE = new Set(['true', 'yes', 'on', '1']);
const FALSE = new Set(['false', 'no', 'off', '0']);

/** One `--set` value as the field's kind wants it (a list item for list fields). */
function typedValue(flag: string, field: ConnectorField | undefined, raw: string): unknown {
  if (field === undefined) return raw;
  const kind = field.kind.replace(/\[\]$/, '');
  if (raw === 'null' && field.nullable) return null;
  switch (kind) {
    case 'boolean': {
      const v = raw.toLowerCase();
      if (TRUE.has(v)) return true;
      if (FALSE.has(v)) return false;
      throw new UsageError(`${flag}: ${field.name} expects true or false, got "${raw}"`);
    }
    case 'integer':
    case 'number': {
      const n = Number(raw);
      if (
        raw.trim() === '' ||
        !Number.isFinite(n) ||
        (kind === 'integer' && !Number.isInteger(n))
      ) {
        throw new UsageError(
          `${flag}: ${field.name} expects ${kind === 'integer' ? 'an integer' : 'a number'}, got "${raw}"`,
        );
      }
      return n;
    }
    case 'enum': {
      const options = (field.options ?? []).map(String);
      if (options.includes(raw)) return raw;
      const close = closeValues(raw, options);
      throw new UsageError(
        `${flag}: ${field.name} expects one of ${options.join(', ')}, got "${raw}"${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}`,
      );
    }
    case 'object':
      try {
        return parseJsonText(raw);
      } catch (error) {
        throw new UsageError(`${flag}: ${field.name} expects JSON: ${(error as Error).message}`);
      }
    default:
      return raw;
  }
}

/** `key=value` split at the first `=`; the flag's name and index in errors. */
function splitSet(flag: string, item: string): [string, string] {
  const at = item.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag}: expected key=value, got "${item}"`);
  return [item.slice(0, at).trim(), item.slice(at + 1)];
}

/** The unknown-key error: the close keys and where to see them all. */
function unknownKey(
  flag: string,
  key: string,
  source: string,
  known: string[],
  what: string,
): UsageError {
  const close = closeValues(key, known);
  return new UsageError(
    `${flag}: ${key} is not a ${source} ${what} key${close.length ? `; did you mean ${close.join(', ')}?` : ''} (\`kis connector fields ${source}\` lists them)`,
  );
}

/**
 * The config built from `--set` items over `base` (from `--config`): values typed by the field's
 * kind, list fields from repeated keys or comma-separated values, and (when there are `--set`
 * items) the interface's defaults for fields not given, returned in `filled` to be shown.
 */
export function configFromSets(
  source: string,
  sets: readonly string[],
  base: Record<string, unknown>,
): { config: Record<string, unknown>; filled: string[] } {
  const entry = sourceFields(source);
  const config: Record<string, unknown> = { ...base };
  const listed = new Set<string>();
  for (const item of sets) {
    const [key, raw] = splitSet('--set', item);
    const field = entry?.fields.find((f) => f.name === key);
    if (entry?.closed && field === undefined) {
      throw unknownKey(
        '--set',
        key,
        source,
        entry.fields.map((f) => f.name),
        'config',
      );
    }
    if (field?.list || field?.kind.endsWith('[]')) {
      // a list of objects takes one JSON object per --set; other lists also split at commas
      const items =
        raw === '' ? [] : field.kind === 'object' ? [raw] : raw.split(',').map((s) => s.trim());
      if (!listed.has(key)) config[key] = [];
      listed.add(key);
      (config[key] as unknown[]).push(...items.map((v) => typedValue('--set', field, v)));
    } else {
      config[key] = typedValue('--set', field, raw);
    }
  }
  const filled: string[] = [];
  // defaults complete a config built from flags; a --config alone is sent as given
  if (entry !== undefined && sets.length > 0) {
    const inGroups = groupFields(entry);
    for (const f of entry.fields) {
      if (f.default === undefined || f.notInInterface || inGroups.has(f.name)) continue;
      if (config[f.name] !== undefined) continue;
      config[f.name] = f.default;
      filled.push(`${f.name}=${JSON.stringify(f.default)}`);
    }
  }
  return { config, filled };
}

/**
 * `credential_json` from `--set` items: `key=value`, `key=@file` (the file's text, trailing
 * newline dropped) or `key=env:NAME` (an environment variable), so that secrets need not be typed
 * on the command line. Values are never echoed, not even in errors.
 */
export async function credentialFromSets(
  source: string,
  sets: readonly string[],
  base: Record<string, unknown>,
  io: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Record<string, unknown>> {
  const keys = sourceFields(source)?.credential?.keys.map((k) => k.name);
  const json: Record<string, unknown> = { ...base };
  for (const item of sets) {
    const [key, raw] = splitSet('--set', item.includes('=') ? item : `${item}=`);
    if (keys !== undefined && !keys.includes(key)) {
      throw unknownKey('--set', key, source, keys, 'credential');
    }
    if (raw.startsWith('@')) {
      const path = raw.slice(1);
      try {
        json[key] = (await readFile(resolve(io.cwd, path), 'utf8')).replace(/\r?\n$/, '');
      } catch (error) {
        throw new UsageError(`--set: ${key}: cannot read file "${path}": ${fsReason(error)}`);
      }
    } else if (raw.startsWith('env:')) {
      const name = raw.slice(4);
      const value = io.env[name];
      if (value === undefined || value === '') {
        throw new UsageError(`--set: ${key}: environment variable ${name} is not set`);
      }
      json[key] = value;
    } else {
      json[key] = raw;
    }
  }
  return json;
}
