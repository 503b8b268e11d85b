// Test helpers: a started emulator, a fetch wrapper for its API, and a contract check that every
// response of `/api` is documented for its operation in the spec (status and body shape), the
// same check `prism proxy --errors` makes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { type Emulator, type EmulatorOptions, startEmulator } from '../src/index.js';

const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;

type Json = Record<string, unknown>;

const specFile = createRequire(import.meta.url).resolve('@kis/spec/openapi.json');
export const spec = JSON.parse(readFileSync(specFile, 'utf8')) as {
  paths: Record<string, Record<string, Json>>;
  components: Json;
};

const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema(spec as object, 'spec');

function escapePointer(s: string): string {
  return s.replaceAll('~', '~0').replaceAll('/', '~1');
}

function at(pointer: string): unknown {
  return pointer
    .slice(1)
    .split('/')
    .filter((s) => s !== '')
    .reduce<unknown>(
      (node, seg) =>
        node === null || typeof node !== 'object'
          ? undefined
          : (node as Json)[seg.replaceAll('~1', '/').replaceAll('~0', '~')],
      spec,
    );
}

/** Follows `$ref`s, returning the node and its JSON pointer. */
function deref(pointer: string): { node: unknown; pointer: string } {
  let p = pointer;
  let node = at(p);
  for (let i = 0; i < 16; i++) {
    const ref = (node as Json | undefined)?.$ref;
    if (typeof ref !== 'string') break;
    p = ref.slice(1);
    node = at(p);
  }
  return { node, pointer: p };
}

export interface OperationMatch {
  path: string;
  method: string;
  operationId: string;
}

/** The spec operation a request (method, path under /api) belongs to, if any. */
export function findOperation(method: string, apiPath: string): OperationMatch | undefined {
  const m = method.toLowerCase();
  for (const [template, item] of Object.entries(spec.paths)) {
    const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (!re.test(apiPath)) continue;
    const op = item[m] as Json | undefined;
    if (op !== undefined) return { path: template, method: m, operationId: String(op.operationId) };
  }
  return undefined;
}

/** Throws when a response breaks the spec for its operation. */
export function checkContract(
  method: string,
  apiPath: string,
  status: number,
  contentType: string | null,
  body: unknown,
): void {
  const op = findOperation(method, apiPath);
  if (op === undefined) throw new Error(`${method} ${apiPath}: no such operation in the spec`);
  const base = `/paths/${escapePointer(op.path)}/${op.method}/responses`;
  const responses = at(base) as Json;
  const key = String(status) in responses ? String(status) : 'default';
  if (!(key in responses)) {
    throw new Error(`${op.operationId}: status ${status} is not documented`);
  }
  const response = deref(`${base}/${key}`);
  const content = (response.node as Json).content as Json | undefined;
  if (content === undefined) {
    if (body !== undefined && body !== '') throw new Error(`${op.operationId}: unexpected body`);
    return;
  }
  const mediaType = (contentType ?? '').split(';')[0]!.trim();
  if (!(mediaType in content)) {
    throw new Error(`${op.operationId} ${status}: content type ${mediaType} not documented`);
  }
  const schemaPointer = `${response.pointer}/content/${escapePointer(mediaType)}/schema`;
  const schema = deref(schemaPointer);
  const validate = ajv.getSchema(`spec#${schema.pointer}`);
  if (validate === undefined) throw new Error(`cannot compile ${schema.pointer}`);
  if (!validate(body)) {
    throw new Error(
      `${op.operationId} ${status}: body breaks the spec: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    );
  }
}

export interface CallOptions {
  key?: string | null;
  json?: unknown;
  /** A raw body (sent as is, with `contentType`). */
  raw?: string | Uint8Array<ArrayBuffer>;
  contentType?: string;
  form?: FormData;
  headers?: Record<string, string>;
}

export interface CallResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

/** A test client for one emulator: `call(method, path)` with the admin key by default. */
export function client(emulator: Emulator) {
  return async function call<T = Json>(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<CallResult<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const key = options.key === undefined ? emulator.adminKey : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.raw !== undefined) {
      if (options.contentType !== undefined) headers['content-type'] = options.contentType;
      body = options.raw;
    } else if (options.form !== undefined) {
      body = options.form;
    }
    const response = await fetch(`${emulator.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    const parsed = contentType?.includes('json') && text !== '' ? JSON.parse(text) : text;
    const apiPath = new URL(`${emulator.baseUrl}${path}`).pathname.replace(/^\/api/, '');
    checkContract(method, apiPath, response.status, contentType, parsed);
    return { status: response.status, body: parsed as T, headers: response.headers, text };
  };
}

export async function start(options: EmulatorOptions = {}) {
  const emulator = await startEmulator({ dbPath: ':memory:', port: 0, ...options });
  return { emulator, call: client(emulator) };
}

/** A minimal valid ingestion document. */
export function doc(overrides: Json = {}): Json {
  return {
    semantic_identifier: 'A document',
    sections: [{ text: 'Some text', link: 'https://example.com/a' }],
    source: 'web',
    metadata: {},
    ...overrides,
  };
}

/** A valid connector-creation body. */
export function connectorBody(overrides: Json = {}): Json {
  return {
    name: 'Issue tracker',
    source: 'jira',
    input_type: 'poll',
    access_type: 'public',
    connector_specific_config: {
      jira_base_url: 'https://example.atlassian.net',
      project_key: 'KIS',
      comment_email_blacklist: [],
    },
    refresh_freq: 3600,
    prune_freq: 86400,
    ...overrides,
  };
}

/** A file-like part for multipart forms. */
export function filePart(
  content: string | Uint8Array<ArrayBuffer>,
  name: string,
  type = 'image/png',
): File {
  return new File([content], name, { type });
}

/** Bytes that pass the PKCS#12 structure check: SEQUENCE { INTEGER 3, ... }. */
export const PFX_BYTES = new Uint8Array([0x30, 0x06, 0x02, 0x01, 0x03, 0x30, 0x01, 0x00]);

/** This package's version, as the emulator's `/version` names it. */
export const PACKAGE_VERSION: string = (
  createRequire(import.meta.url)('../package.json') as { version: string }
).version;
