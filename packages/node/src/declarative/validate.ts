/**
 * Checks a desired state before anything is sent, reporting every problem at once, each naming
 * its entry and field: the shape of each entry (the keys of `@kis/spec/kis-file.schema.json`),
 * duplicate names, credential references, and each config and credential against its source's
 * schema (the validators of `config-check.ts`).
 */

import type { DesiredStateIssue as StateIssue } from '@kis/client';
import { closeValues, connectorConfigIssues, credentialJsonIssues, specEnums } from '@kis/client';
import { needsCredential } from '@kis/rules';
import type { DesiredCredential } from './types.js';

/** The keys of each kind of entry (the file schema's; test/declarative.test.ts compares). */
export const ENTRY_KEYS = {
  file: ['$schema', 'credentials', 'connectors', 'user_groups', 'document_sets'],
  credential: ['name', 'source', 'credential_json', 'admin_public', 'curator_public', 'groups'],
  connector: [
    'name',
    'source',
    'input_type',
    'access_type',
    'refresh_freq',
    'prune_freq',
    'indexing_start',
    'config',
    'credential',
    'pair_name',
    'groups',
    'documents',
  ],
  documents: ['sql', 'git'],
  sql: [
    'connection',
    'query',
    'table',
    'id',
    'title',
    'text',
    'heading',
    'metadata',
    'updated_at',
    'link',
    'id_prefix',
  ],
  git: ['repository', 'ref', 'link', 'id_prefix', 'include', 'exclude'],
} as const;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

type Enums = Awaited<ReturnType<typeof specEnums>>;

class Collector {
  readonly issues: StateIssue[] = [];
  constructor(readonly enums: Enums) {}
  add(entry: string, field: string, message: string, keyword = 'type'): void {
    this.issues.push({ entry, path: field, message, keyword });
  }
}

/** A problem for each key of `value` that `keys` does not have (with the closest ones). */
export function unknownKeyIssues(entry: string, value: Obj, keys: readonly string[]): StateIssue[] {
  return Object.keys(value)
    .filter((key) => !keys.includes(key))
    .map((key) => {
      const close = closeValues(key, keys);
      const hint = close.length > 0 ? ` (did you mean ${close.join(', ')}?)` : '';
      const message = `is not a key of this entry${hint}; keys: ${keys.join(', ')}`;
      return { entry, path: key, message, keyword: 'additionalProperties' };
    });
}

function unknownKeys(c: Collector, entry: string, value: Obj, keys: readonly string[]): void {
  c.issues.push(...unknownKeyIssues(entry, value, keys));
}

/** `list[i] "name"`: how problems name an entry. */
export function label(list: string, index: number, value: unknown): string {
  const name = isObject(value) && typeof value.name === 'string' ? ` "${value.name}"` : '';
  return `${list}[${index}]${name}`;
}

function checkName(c: Collector, entry: string, value: Obj): void {
  if (typeof value.name !== 'string' || value.name.trim() === '') {
    c.add(entry, 'name', 'is required: a non-empty string', 'required');
  }
}

function checkSource(c: Collector, entry: string, value: Obj): void {
  const source = value.source;
  if (typeof source !== 'string' || source === '') {
    c.add(entry, 'source', 'is required: a source value (kis sources lists them)', 'required');
    return;
  }
  const known = c.enums.DocumentSource;
  if (known.includes(source)) return;
  // a source newer than the spec is taken as given, a near miss of a known one is a typo
  const close = closeValues(source, known, 3);
  if (close.length > 0) {
    c.add(
      entry,
      'source',
      `"${source}" is not a source value (did you mean ${close.join(', ')}?)`,
      'enum',
    );
  }
}

function checkEnum(
  c: Collector,
  entry: string,
  value: Obj,
  key: string,
  values: readonly string[],
): void {
  const v = value[key];
  if (v === undefined) return;
  if (typeof v !== 'string' || !values.includes(v.toLowerCase())) {
    c.add(entry, key, `must be one of ${values.join(', ')} (got ${JSON.stringify(v)})`, 'enum');
  }
}

function checkSeconds(c: Collector, entry: string, value: Obj, key: string): void {
  const v = value[key];
  if (v === undefined || v === null) return;
  if (!Number.isInteger(v) || (v as number) < 0) {
    c.add(entry, key, `must be a whole number of seconds ≥ 0 or null (got ${JSON.stringify(v)})`);
  }
}

function checkType(
  c: Collector,
  entry: string,
  value: Obj,
  key: string,
  ok: (v: unknown) => boolean,
  what: string,
): void {
  if (value[key] !== undefined && !ok(value[key])) {
    c.add(entry, key, `must be ${what} (got ${JSON.stringify(value[key])})`);
  }
}

const isIntList = (v: unknown) => Array.isArray(v) && v.every((n) => Number.isInteger(n));
/** Names (non-empty) or ids (whole numbers ≥ 0): how groups and pairs are named in a file. */
export const isRefList = (v: unknown) =>
  Array.isArray(v) &&
  v.every((r) => (typeof r === 'string' && r !== '') || (Number.isInteger(r) && r >= 0));
const isText = (v: unknown) => typeof v === 'string' && v !== '';

function duplicates(c: Collector, list: string, entries: readonly unknown[]): void {
  const seen = new Map<string, number>();
  entries.forEach((value, i) => {
    if (!isObject(value) || typeof value.name !== 'string' || typeof value.source !== 'string') {
      return;
    }
    const key = `${value.source}\u0000${value.name}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else {
      c.add(
        label(list, i, value),
        'name',
        `repeats ${list}[${first}] (same name and source): entries are matched on the server by name and source`,
        'uniqueItems',
      );
    }
  });
}

function listOf(c: Collector, state: Obj, key: 'credentials' | 'connectors'): unknown[] {
  const list = state[key];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) {
    c.add(key, key, `must be a list (got ${JSON.stringify(list)})`);
    return [];
  }
  return list;
}

async function checkCredential(c: Collector, entry: string, value: Obj): Promise<void> {
  unknownKeys(c, entry, value, ENTRY_KEYS.credential);
  checkName(c, entry, value);
  checkSource(c, entry, value);
  checkType(c, entry, value, 'admin_public', (v) => typeof v === 'boolean', 'true or false');
  checkType(c, entry, value, 'curator_public', (v) => typeof v === 'boolean', 'true or false');
  checkType(c, entry, value, 'groups', isIntList, 'a list of group ids');
  const json = value.credential_json;
  if (json === undefined) return;
  if (!isObject(json)) {
    c.add(entry, 'credential_json', 'must be an object of keys');
    return;
  }
  if (typeof value.source !== 'string') return;
  // required keys are checked once the server is read: an existing credential keeps what is left out
  for (const issue of await credentialJsonIssues(value.source, json)) {
    if (issue.keyword !== 'required' && issue.keyword !== 'oneOf')
      c.issues.push({ ...issue, entry });
  }
}

async function checkConnector(
  c: Collector,
  entry: string,
  value: Obj,
  credentials: readonly unknown[],
): Promise<void> {
  unknownKeys(c, entry, value, ENTRY_KEYS.connector);
  checkName(c, entry, value);
  checkSource(c, entry, value);
  checkEnum(c, entry, value, 'input_type', c.enums.InputType);
  checkEnum(c, entry, value, 'access_type', c.enums.AccessType);
  checkSeconds(c, entry, value, 'refresh_freq');
  checkSeconds(c, entry, value, 'prune_freq');
  checkType(
    c,
    entry,
    value,
    'indexing_start',
    (v) => v === null || typeof v === 'string',
    'a date-time or null',
  );
  checkType(c, entry, value, 'pair_name', isText, 'a non-empty string');
  checkType(c, entry, value, 'groups', isRefList, 'a list of group names or ids');
  if (value.documents !== undefined) checkDocuments(c, entry, value.documents);
  const source = typeof value.source === 'string' ? value.source : undefined;
  const config = value.config ?? {};
  if (!isObject(config))
    c.add(entry, 'config', 'must be an object (the connector_specific_config)');
  else if (source !== undefined) {
    for (const issue of await connectorConfigIssues(source, config, 'config')) {
      c.issues.push({ ...issue, entry });
    }
  }
  const ref = value.credential;
  if (ref === undefined) {
    if (source !== undefined && needsCredential(source)) {
      c.add(
        entry,
        'credential',
        `is required: ${source} connectors read their source with a credential (the name of one in credentials)`,
        'required',
      );
    }
    return;
  }
  if (!isText(ref)) {
    c.add(entry, 'credential', `must be the name of a credential (got ${JSON.stringify(ref)})`);
    return;
  }
  const named = credentials.filter((k): k is Obj => isObject(k) && k.name === ref);
  if (named.length === 0) {
    const names = credentials.flatMap((k) =>
      isObject(k) && typeof k.name === 'string' ? [k.name] : [],
    );
    const close = closeValues(ref as string, names);
    const hint =
      close.length > 0 ? ` (did you mean ${close.map((n) => JSON.stringify(n)).join(', ')}?)` : '';
    c.add(entry, 'credential', `names no credential of the file: "${ref}"${hint}`, 'enum');
  } else if (source !== undefined && !named.some((k) => k.source === source)) {
    c.add(
      entry,
      'credential',
      `"${ref}" is a ${String(named[0]?.source)} credential, not a ${source} one`,
      'enum',
    );
  }
}

const isTextList = (v: unknown) => Array.isArray(v) && v.every(isText);
/** How a reference to the connection string's variable is written (in messages). */
// biome-ignore lint/suspicious/noTemplateCurlyInString: the file's reference syntax
const REFERENCE_EXAMPLE = '${CRM_DATABASE_URL}';
/** A `${NAME}` reference to an environment variable. */
export const ENV_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** A pair's documents: one of `sql` or `git`, each with its keys; no password written out. */
function checkDocuments(c: Collector, entry: string, documents: unknown): void {
  if (!isObject(documents)) {
    c.add(entry, 'documents', 'must be an object: { sql: {…} } or { git: {…} }');
    return;
  }
  unknownKeys(c, entry, documents, ENTRY_KEYS.documents);
  const kinds = Object.keys(documents).filter((k) => k === 'sql' || k === 'git');
  if (kinds.length !== 1) {
    c.add(entry, 'documents', 'must hold one of sql or git', 'oneOf');
    return;
  }
  const kind = kinds[0] as 'sql' | 'git';
  const spec = documents[kind];
  const at = `documents.${kind}`;
  if (!isObject(spec)) {
    c.add(entry, at, 'must be an object');
    return;
  }
  for (const key of Object.keys(spec)) {
    const keys: readonly string[] = ENTRY_KEYS[kind];
    if (keys.includes(key)) continue;
    const close = closeValues(key, keys);
    const hint = close.length > 0 ? ` (did you mean ${close.join(', ')}?)` : '';
    c.add(
      entry,
      `${at}.${key}`,
      `is not a key of ${at}${hint}; keys: ${keys.join(', ')}`,
      'additionalProperties',
    );
  }
  const need = (key: string, ok: (v: unknown) => boolean, what: string) => {
    if (spec[key] === undefined) c.add(entry, `${at}.${key}`, `is required: ${what}`, 'required');
    else if (!ok(spec[key])) c.add(entry, `${at}.${key}`, `must be ${what}`);
  };
  const may = (key: string, ok: (v: unknown) => boolean, what: string) => {
    if (spec[key] !== undefined && !ok(spec[key])) c.add(entry, `${at}.${key}`, `must be ${what}`);
  };
  if (kind === 'git') {
    need('repository', isText, 'a path, a file:// URL, or an https:// or ssh:// URL');
    for (const key of ['ref', 'link', 'id_prefix'])
      may(key, (v) => typeof v === 'string', 'a string');
    for (const key of ['include', 'exclude']) may(key, isTextList, 'a list of globs');
    return;
  }
  need(
    'connection',
    isText,
    `a reference to the environment variable of the connection string, e.g. ${REFERENCE_EXAMPLE}`,
  );
  const connection = spec.connection;
  if (
    typeof connection === 'string' &&
    !ENV_REFERENCE.test(connection) &&
    /:\/\/[^/@]*:[^/@]*@/.test(connection)
  ) {
    c.add(
      entry,
      `${at}.connection`,
      `holds a password: write a reference to an environment variable instead, e.g. ${REFERENCE_EXAMPLE}`,
      'pattern',
    );
  }
  need('id', isText, 'the column of the document ids');
  need(
    'text',
    (v) => isText(v) || (isTextList(v) && (v as unknown[]).length > 0),
    'a column, or a list of columns',
  );
  if ((spec.query === undefined) === (spec.table === undefined)) {
    c.add(entry, `${at}.query`, 'give a query or a table (one of them)', 'oneOf');
  }
  for (const key of ['query', 'table', 'title', 'heading', 'updated_at'])
    may(key, isText, 'a non-empty string');
  for (const key of ['link', 'id_prefix']) may(key, (v) => typeof v === 'string', 'a string');
  may('metadata', isTextList, 'a list of columns');
}

/** Every problem of `state` (empty when it can be planned). */
export async function desiredStateIssues(state: unknown): Promise<StateIssue[]> {
  const c = new Collector(await specEnums());
  if (!isObject(state)) {
    c.add('file', '', 'must be an object with credentials and connectors lists');
    return c.issues;
  }
  unknownKeys(c, 'file', state, ENTRY_KEYS.file);
  const credentials = listOf(c, state, 'credentials');
  const connectors = listOf(c, state, 'connectors');
  for (const [i, value] of credentials.entries()) {
    const entry = label('credentials', i, value);
    if (isObject(value)) await checkCredential(c, entry, value);
    else c.add(entry, '', 'must be an object');
  }
  for (const [i, value] of connectors.entries()) {
    const entry = label('connectors', i, value);
    if (isObject(value)) await checkConnector(c, entry, value, credentials);
    else c.add(entry, '', 'must be an object');
  }
  duplicates(c, 'credentials', credentials);
  duplicates(c, 'connectors', connectors);
  return c.issues;
}

/**
 * The problems of credentials about to be created: the source's required keys, which an existing
 * credential may leave out.
 */
export async function newCredentialIssues(
  entry: string,
  credential: DesiredCredential,
): Promise<StateIssue[]> {
  const issues = await credentialJsonIssues(credential.source, credential.credential_json ?? {});
  return issues
    .filter((i) => i.keyword === 'required' || i.keyword === 'oneOf')
    .map((i) => ({ ...i, entry, message: `${i.message} (the credential is created)` }));
}
