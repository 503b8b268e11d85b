/**
 * Checks a connector's `connector_specific_config` and a credential's `credential_json` against
 * their source's schema in the spec (`ConnectorConfigBySource`, `CredentialJsonBySource`), before
 * anything is sent: deployed servers only check a config at association, when the connector
 * already exists (`docs/connector-configs.md`). Sources the spec does not list pass unchecked.
 * The validators (every error reported) load on first use, in a chunk of their own.
 */
import { type ClientValidationIssue, ConfigValidationError } from '../errors.js';
import { closeValues } from './close-values.js';
import { issuesMessage, pointerToPath } from './validate.js';

interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
}
type Validator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
type Generated = typeof import('./generated/connector-configs.js');

let generated: Promise<Generated> | undefined;
const load = () => {
  generated ??= import('./generated/connector-configs.js');
  return generated;
};

const hasValue = (v: unknown) =>
  v !== undefined && v !== null && v !== false && v !== '' && !(Array.isArray(v) && !v.length);

function typeText(type: unknown): string {
  const types = (Array.isArray(type) ? type : [type]).map(String);
  return types
    .map((t) => (t === 'array' ? 'a list' : t === 'object' ? 'an object' : t))
    .join(' or ');
}

function got(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const part of pointer.split('/').slice(1)) {
    node = (node as Record<string, unknown> | undefined)?.[
      part.replace(/~1/g, '/').replace(/~0/g, '~')
    ];
  }
  return node;
}

type Group = NonNullable<Generated['CONFIG_TABLE'][string]['groups']>[string];

/** The issue of an exclusive group none (or more than one) of whose choices matched. */
function groupIssue(
  base: string,
  group: Group,
  config: Record<string, unknown>,
): ClientValidationIssue {
  const given = group.options.flatMap((o) => o.fields).filter((f) => hasValue(config[f]));
  const choices = group.options
    .map((o) => (o.fields.length ? `${o.label} (${o.fields.join(', ')})` : `${o.label} (no field)`))
    .join(' | ');
  return {
    path: base,
    message: `"${group.label}" takes exactly one choice: ${choices}; got ${given.length ? given.join(', ') : 'none'}`,
    keyword: 'oneOf',
  };
}

function issuesOf(
  errors: readonly AjvError[],
  data: Record<string, unknown>,
  source: string,
  base: string,
  keys: readonly string[],
  groups: Record<string, Group> | undefined,
  secret: boolean,
): ClientValidationIssue[] {
  const config = (data[source] ?? {}) as Record<string, unknown>;
  const issues: ClientValidationIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    // errors inside a group's branches are summed up by the group's own `oneOf` error
    if (/\/oneOf\/\d+/.test(e.schemaPath)) continue;
    const sub = pointerToPath(e.instancePath.slice(`/${source}`.length));
    const path = !sub ? base : sub.startsWith('[') || !base ? `${base}${sub}` : `${base}.${sub}`;
    // never echo a credential's values: they are secrets
    const shown = () => (secret ? '' : `, got ${got(valueAt(data, e.instancePath))}`);
    const field = (name: string) => (base ? `${base}.${name}` : name);
    let issue: ClientValidationIssue;
    const groupIndex = /^#\/allOf\/(\d+)\/oneOf$/.exec(e.schemaPath)?.[1];
    if (e.keyword === 'oneOf' && groupIndex !== undefined && groups?.[groupIndex]) {
      issue = groupIssue(base, groups[groupIndex], config);
    } else if (e.keyword === 'additionalProperties') {
      const key = String(e.params.additionalProperty);
      const suggestions = closeValues(key, keys);
      issue = {
        path: field(key),
        message: `is not a ${source} key${suggestions.length ? ` (did you mean ${suggestions.join(', ')}?)` : ''}`,
        keyword: e.keyword,
        suggestions,
      };
    } else if (e.keyword === 'required') {
      issue = {
        path: field(String(e.params.missingProperty)),
        message: 'is required',
        keyword: e.keyword,
      };
    } else if (e.keyword === 'type') {
      issue = {
        path,
        message: `expected ${typeText(e.params.type)}${shown()}`,
        keyword: e.keyword,
      };
    } else if (e.keyword === 'enum') {
      const allowed = (e.params.allowedValues as unknown[]).filter((v) => v !== null).map(String);
      issue = {
        path,
        message: `expected one of ${allowed.join(', ')}${shown()}`,
        keyword: e.keyword,
      };
    } else {
      issue = {
        path,
        message: `fails "${e.keyword}" ${JSON.stringify(e.params)}`,
        keyword: e.keyword,
      };
    }
    const id = `${issue.path}\u0000${issue.message}`;
    if (!seen.has(id)) issues.push(issue);
    seen.add(id);
  }
  return issues;
}

async function check(
  kind: 'config' | 'credential',
  source: string,
  value: unknown,
  base: string,
): Promise<ClientValidationIssue[]> {
  const g = await load();
  const known = kind === 'config' ? g.CONFIG_TABLE[source] : g.CREDENTIAL_KEYS[source];
  if (known === undefined || typeof source !== 'string') return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const shown = kind === 'credential' ? '' : `, got ${got(value)}`;
    return [{ path: base, message: `expected an object${shown}`, keyword: 'type' }];
  }
  const validate = (kind === 'config'
    ? g.validateConnectorConfigBySource
    : g.validateCredentialJsonBySource) as unknown as Validator;
  const data = { [source]: value };
  if (validate(data)) return [];
  const table = kind === 'config' ? g.CONFIG_TABLE[source] : undefined;
  const keys = table?.keys ?? g.CREDENTIAL_KEYS[source] ?? [];
  const groups = table?.groups;
  return issuesOf(validate.errors ?? [], data, source, base, keys, groups, kind === 'credential');
}

/** The problems of `config` for `source` (empty when it is valid or the source is not in the spec). */
export function connectorConfigIssues(
  source: string,
  config: unknown,
  base = 'connector_specific_config',
): Promise<ClientValidationIssue[]> {
  return check('config', source, config, base);
}

/** The problems of `credential_json` for `source` (empty when valid or the source is unknown). */
export function credentialJsonIssues(
  source: string,
  json: unknown,
  base = 'credential_json',
): Promise<ClientValidationIssue[]> {
  return check('credential', source, json, base);
}

async function assertValid(kind: 'config' | 'credential', source: string, value: unknown) {
  const base = kind === 'config' ? 'connector_specific_config' : 'credential_json';
  const issues = await check(kind, source, value, base);
  if (issues.length === 0) return;
  const what = kind === 'config' ? 'connector config' : 'credential_json';
  throw new ConfigValidationError(
    issuesMessage(`Invalid ${source} ${what} (nothing was sent)`, issues),
    source,
    issues,
  );
}

/** The spec's source, input type and access type values (loaded with the validators). */
export async function specEnums(): Promise<Generated['ENUMS']> {
  return (await load()).ENUMS;
}

/** The `input_type` the admin interface creates `source`'s connectors with (else `poll`). */
export async function defaultInputType(source: string): Promise<string> {
  return (await load()).CONFIG_TABLE[source]?.inputType ?? 'poll';
}

/** Throws a `ConfigValidationError` naming every wrong field of the connector's config. */
export const assertConnectorConfig = (source: string, config: unknown) =>
  assertValid('config', source, config);

/** Throws a `ConfigValidationError` naming every wrong key of a credential's `credential_json`. */
export const assertCredentialJson = (source: string, json: unknown) =>
  assertValid('credential', source, json);
