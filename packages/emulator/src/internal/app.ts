// The HTTP application (hono): one route per operation of the spec under `/api`, each going
// through the same pipeline: bearer auth, parameter parsing, body parsing and validation against
// the spec, then the operation's handler. Outside `/api`: the admin page, the state view and the
// HTML API reference (`/docs`).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { adminPage } from './admin-page.js';
import type { KeyRing, Role } from './auth.js';
import { HttpError, ValidationFailure } from './errors.js';
import { createHandlers, type OpHandler, type OpInput, prepareIngestion } from './handlers.js';
import type { Indexer } from './indexer.js';
import { stateView } from './state-view.js';
import type { Store } from './store.js';
import {
  checkParameter,
  type OperationInfo,
  type SpecValidators,
  tooDeepIssue,
  tooDeepPath,
  type ValidationIssue,
} from './validation.js';

export const API_PREFIX = '/api';

/** Extra mounts of spec operations at the paths deployed servers use. */
const ALIASES: Record<string, string[]> = {
  uploadUserFiles: ['/user/projects/file/upload'],
};

export interface AppOptions {
  store: Store;
  indexer: Indexer;
  validators: SpecValidators;
  keys: KeyRing;
  maxBodyBytes: number;
  latencyMs: number;
  corsOrigin: string | string[] | undefined;
  now: () => Date;
  /** Called once per request with `METHOD path status ms` (never headers or bodies). */
  logRequest: ((line: string) => void) | undefined;
  /** Called with unexpected errors (a 500 answer). */
  logError: (error: unknown) => void;
}

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: JSON_HEADERS,
  });
}

function detail(status: number, message: string): Response {
  return json(status, { detail: message });
}

function validationResponse(issues: ValidationIssue[]): Response {
  return json(422, { detail: issues });
}

/** `/manage/admin/...` needs an admin key; everything else any known key. */
function requiredRole(path: string): Role {
  return path.startsWith('/manage/admin/') ? 'admin' : 'basic';
}

function honoPath(specPath: string): string {
  return API_PREFIX + specPath.replace(/\{([^}]+)\}/g, ':$1');
}

/** Raw (undecoded) values of the path parameters, from the URL's path. */
function rawPathParams(template: string, pathname: string): Record<string, string> {
  const names = template.split('/');
  const values = pathname.split('/');
  const out: Record<string, string> = {};
  names.forEach((seg, i) => {
    const m = /^:(.+)$/.exec(seg);
    if (m !== null && values[i] !== undefined) out[m[1]!] = values[i]!;
  });
  return out;
}

/** FastAPI's answer to a body that is not JSON: 422 `json_invalid` at the error position. */
function jsonInvalid(text: string, error: Error): ValidationIssue {
  const m = /position (\d+)/.exec(error.message);
  const position = m === null ? text.length : Number(m[1]);
  return {
    loc: ['body', position],
    msg: 'JSON decode error',
    type: 'json_invalid',
    input: {},
    ctx: { error: error.message },
  };
}

/** True when the request declares its length (the body limit was checked up front). */
function hasLength(c: Context): boolean {
  return (
    c.req.header('content-length') !== undefined && c.req.header('transfer-encoding') === undefined
  );
}

/** Reads a body of undeclared length, answering 413 once it passes `maxBytes`. */
async function readLimited(c: Context, maxBytes: number): Promise<Uint8Array> {
  const stream = c.req.raw.body;
  if (stream === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new HttpError(
        413,
        `Request body too large: the emulator accepts at most ${maxBytes} bytes (--max-body-bytes)`,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function readText(c: Context, maxBytes: number): Promise<string> {
  if (hasLength(c)) return c.req.text();
  return Buffer.from(await readLimited(c, maxBytes)).toString('utf8');
}

async function readForm(c: Context, maxBytes: number): Promise<FormData> {
  if (hasLength(c)) return c.req.formData();
  const bytes = await readLimited(c, maxBytes);
  const body = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new Response(body as ArrayBuffer, {
    headers: { 'content-type': c.req.header('content-type') ?? '' },
  }).formData();
}

async function readJsonBody(
  c: Context,
  op: OperationInfo,
  validators: SpecValidators,
  maxBytes: number,
): Promise<{ body: unknown; issues: ValidationIssue[] }> {
  const info = op.body!;
  const text = await readText(c, maxBytes);
  const type = c.req.header('content-type');
  if (text.trim() !== '' && type !== undefined && !/^application\/([\w.-]+\+)?json\b/i.test(type)) {
    // FastAPI reads the body as JSON only without a Content-Type or with a JSON one; anything
    // else reaches the model as raw bytes, which deployed servers answer with this 422
    return {
      body: undefined,
      issues: [
        {
          loc: ['body'],
          msg: `Input should be a valid dictionary or object to extract fields from (the body was sent as ${type.split(';')[0]}; send Content-Type: application/json)`,
          type: 'model_attributes_type',
        },
      ],
    };
  }
  if (text.trim() === '') {
    if (info.required) {
      return {
        body: undefined,
        issues: [{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }],
      };
    }
    return { body: undefined, issues: [] };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { body: undefined, issues: [jsonInvalid(text, error as Error)] };
  }
  const deep = tooDeepPath(body);
  if (deep !== undefined) return { body: undefined, issues: [tooDeepIssue(deep, ['body'])] };
  return { body, issues: validators.check(info.validate, body, ['body']) };
}

async function readFormBody(
  c: Context,
  op: OperationInfo,
  validators: SpecValidators,
  maxBytes: number,
): Promise<{ form: FormData; issues: ValidationIssue[] }> {
  const info = op.body!;
  let form: FormData;
  const type = c.req.header('content-type') ?? '';
  if (/^multipart\/form-data|^application\/x-www-form-urlencoded/i.test(type)) {
    try {
      form = await readForm(c, maxBytes);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      return {
        form: new FormData(),
        issues: [
          {
            loc: ['body'],
            msg: `Value error, the multipart body could not be parsed: ${(error as Error).message}`,
            type: 'value_error',
          },
        ],
      };
    }
  } else {
    // Not a form (FastAPI then reports every required part as missing).
    form = new FormData();
  }
  // The form as an object for the schema: empty text parts count as missing (FastAPI), file parts
  // become their file name, and a text value where a file is expected is an error.
  const issues: ValidationIssue[] = [];
  const data: Record<string, unknown> = {};
  const names = new Set<string>([...form.keys()]);
  for (const name of names) {
    const field = info.fields.get(name);
    const values = form.getAll(name).filter((v) => v !== '');
    if (values.length === 0) continue;
    if (field?.binary) {
      const mapped = values.map((v, i) => {
        if (!(v instanceof File)) {
          issues.push({
            loc: field.array ? ['body', name, i] : ['body', name],
            msg: "Value error, Expected UploadFile, received: <class 'str'>",
            type: 'value_error',
          });
        }
        return v instanceof File ? v.name || 'upload' : String(v);
      });
      data[name] = field.array ? mapped : mapped[mapped.length - 1];
    } else if (field?.array) {
      data[name] = values;
    } else {
      data[name] = values[values.length - 1];
    }
  }
  issues.push(...validators.check(info.validate, data, ['body']));
  return { form, issues };
}

/** The HTML API reference shipped by @kis/spec (`redocly build-docs`), read once when first asked. */
let referencePage: Promise<string> | undefined;

async function readReference(): Promise<string | undefined> {
  try {
    referencePage ??= readFile(
      createRequire(import.meta.url).resolve('@kis/spec/reference.html'),
      'utf8',
    );
    return await referencePage;
  } catch {
    referencePage = undefined; // not built (yet): look again next time
    return undefined;
  }
}

export function createApp(options: AppOptions): Hono {
  const { store, validators, keys } = options;
  const handlers = createHandlers({
    store,
    latencyMs: options.latencyMs,
    now: options.now,
  });
  const app = new Hono();

  if (options.corsOrigin !== undefined) {
    app.use(
      '*',
      cors({
        origin: options.corsOrigin,
        // x-kis-retry-count: sent by @kis/client on every request (the web console needs it).
        allowHeaders: ['authorization', 'content-type', 'x-kis-retry-count'],
        allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      }),
    );
  }

  if (options.logRequest !== undefined) {
    const log = options.logRequest;
    app.use('*', async (c, next) => {
      const start = performance.now();
      await next();
      log(
        `${c.req.method} ${c.req.path} ${c.res.status} ${(performance.now() - start).toFixed(1)}ms`,
      );
    });
  }

  // Bodies over the limit get 413. A declared Content-Length is checked here, before anything is
  // read; a chunked body is counted while it is read (readBody).
  const tooLarge = () =>
    detail(
      413,
      `Request body too large: the emulator accepts at most ${options.maxBodyBytes} bytes (--max-body-bytes)`,
    );
  for (const prefix of [API_PREFIX, '/_emulator']) {
    app.use(`${prefix}/*`, async (c, next) => {
      const length = c.req.header('content-length');
      if (length !== undefined && Number(length) > options.maxBodyBytes) return tooLarge();
      await next();
    });
  }

  const mount = (route: string, op: OperationInfo, handler: OpHandler): void => {
    const role = requiredRole(op.path);
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    const queryParams = op.parameters.filter((p) => p.in === 'query');
    app.on(op.method.toUpperCase(), route, async (c) => {
      const granted = keys.roleOf(c.req.header('authorization'));
      if (granted === undefined) {
        return detail(
          401,
          'Missing or invalid API key: send the header Authorization: Bearer <API key>',
        );
      }
      if (role === 'admin' && granted !== 'admin') {
        return detail(403, 'Access denied: this operation needs an admin API key');
      }
      const issues: ValidationIssue[] = [];
      const params: Record<string, unknown> = {};
      for (const p of pathParams) {
        const r = checkParameter(validators, p, c.req.param(p.name));
        params[p.name] = r.value;
        issues.push(...r.issues);
      }
      for (const p of queryParams) {
        const r = checkParameter(validators, p, c.req.query(p.name));
        params[p.name] = r.value;
        issues.push(...r.issues);
      }
      const input: OpInput = {
        params,
        body: undefined,
        form: undefined,
        rawParams: pathParams.length > 0 ? rawPathParams(route, new URL(c.req.url).pathname) : {},
      };
      if (op.body?.mediaType === 'application/json') {
        const r = await readJsonBody(c, op, validators, options.maxBodyBytes);
        input.body = r.body;
        issues.push(...r.issues);
      } else if (op.body?.mediaType === 'multipart/form-data') {
        const r = await readFormBody(c, op, validators, options.maxBodyBytes);
        input.form = r.form;
        issues.push(...r.issues);
      }
      if (issues.length > 0) return validationResponse(issues);
      const result = await handler(input);
      return json(result.status, result.body);
    });
  };

  for (const op of validators.operations) {
    const handler = handlers[op.operationId];
    if (handler === undefined) continue;
    mount(honoPath(op.path), op, handler);
    for (const alias of ALIASES[op.operationId] ?? []) mount(honoPath(alias), op, handler);
  }

  // Outside /api: the read-only admin page and the JSON state view (no secrets in either).
  app.get('/', (c) => c.html(adminPage(store)));
  app.get('/_emulator/state', (c) => {
    const all = c.req.query('all');
    const full = c.req.query('full');
    const limitText = c.req.query('limit') ?? '1000';
    const limit = limitText === 'all' ? -1 : Number(limitText);
    if (!(limit === -1 || (Number.isInteger(limit) && limit >= 0))) {
      return detail(400, "limit must be a non-negative integer or 'all'");
    }
    return c.json(
      stateView(store, {
        allConnectors: all === '1' || all === 'true',
        fullDocuments: full === '1' || full === 'true',
        documentLimit: limit,
      }),
    );
  });
  app.get('/_emulator/documents/:id', (c) => {
    const doc = store.getDocument(c.req.param('id'));
    return doc === undefined
      ? detail(404, `Document '${c.req.param('id')}' not found`)
      : c.json(doc);
  });
  app.get('/_emulator/health', (c) => c.json({ status: 'ok' }));
  const docs = async (c: Context): Promise<Response> => {
    const html = await readReference();
    return html === undefined
      ? detail(404, 'The API reference is not built: run `pnpm --filter @kis/spec build`')
      : c.html(html);
  };
  app.get('/docs', docs);
  app.get('/docs/', docs);
  const adminOnly = (c: Context): Response | undefined => {
    const role = keys.roleOf(c.req.header('authorization'));
    if (role === undefined) return detail(401, 'Missing or invalid API key');
    if (role !== 'admin') return detail(403, 'This call needs the admin API key');
    return undefined;
  };
  app.post('/_emulator/reset', (c) => {
    const denied = adminOnly(c);
    if (denied !== undefined) return denied;
    store.reset();
    return c.json({ success: true });
  });
  // Adds a document as if a connector had indexed it (not through the ingestion API), e.g. to
  // exercise the 400 answer of deleteIngestedDocument. Body: an IngestionRequest.
  app.post('/_emulator/documents', async (c) => {
    const denied = adminOnly(c);
    if (denied !== undefined) return denied;
    const op = validators.operation('ingestDocument');
    if (op === undefined) return detail(500, 'the spec has no ingestDocument operation');
    const r = await readJsonBody(c, op, validators, options.maxBodyBytes);
    if (r.issues.length > 0) return validationResponse(r.issues);
    const { doc, pairId } = prepareIngestion(store, r.body, options.now(), false);
    const result = store.upsertDocument(doc, pairId);
    return c.json({ document_id: doc.id, already_existed: result.already_existed });
  });
  app.post('/_emulator/indexing/:action', (c) => {
    const denied = adminOnly(c);
    if (denied !== undefined) return denied;
    const action = c.req.param('action');
    if (action === 'pause') options.indexer.pause();
    else if (action === 'resume') options.indexer.resume();
    else if (action === 'drain') options.indexer.drain();
    else return detail(404, `Unknown indexing action '${action}': expected pause, resume or drain`);
    return c.json({ paused: options.indexer.paused, ...store.indexCounts() });
  });

  app.notFound((c) => {
    const path = c.req.path;
    const known = validators.operations.some((op) =>
      [op.path, ...(ALIASES[op.operationId] ?? [])].some((p) =>
        new RegExp(`^${honoPath(p).replace(/:[^/]+/g, '[^/]+')}$`).test(path),
      ),
    );
    return known ? detail(405, 'Method Not Allowed') : detail(404, 'Not Found');
  });

  app.onError((error) => {
    if (error instanceof HttpError) return detail(error.status, error.message);
    if (error instanceof ValidationFailure) return validationResponse(error.issues);
    options.logError(error);
    return detail(500, 'Internal Server Error');
  });

  return app;
}
