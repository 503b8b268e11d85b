// The HTTP application (hono): one route per operation the profile serves, under `/api`, each
// going through the same pipeline: the key and its role, parameters, the body (decoded, read
// laxly where the profile does, validated against the spec), then the operation's handler.
// Outside `/api`: the admin page, the state view and the HTML API reference (`/docs`).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { HttpBindings } from '@hono/node-server';
import { ANSWERS, type Answer, type Profile, roleAllows } from '@kis/spec/rules';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { adminPage } from './admin-page.js';
import type { KeyRing } from './auth.js';
import { readFormBody, readJsonBody } from './body.js';
import { LaxCoercer } from './coerce.js';
import { connectorConfigChecker } from './connector-configs.js';
import type { PairDeletions } from './deletions.js';
import { AnswerError, HttpError, ValidationFailure } from './errors.js';
import { createHandlers, prepareIngestion } from './handlers/index.js';
import type { Indexer } from './indexer.js';
import { type LoadOptions, loadMiddleware } from './load.js';
import { type CheckedHandler, checkedHandler, type Schemas } from './op-types.js';
import { BEHAVIOUR, beforeValidators } from './profile.js';
import { API_PREFIX, knownPathMatcher, type Route, routesFor } from './routes.js';
import { stateView } from './state-view.js';
import type { Store } from './store/index.js';
import {
  checkParameter,
  type RequestBodyInfo,
  type SpecValidators,
  type ValidationIssue,
} from './validation.js';

export interface AppOptions {
  store: Store;
  indexer: Indexer;
  /** The asynchronous pair deletions (`createDeletionAttempt`). */
  deletions: PairDeletions;
  /** Validators compiled from the profile's view of the spec (`profileSpec`). */
  validators: SpecValidators;
  keys: KeyRing;
  profile: Profile;
  /** The `backend_version` the emulator reports. */
  version: string;
  maxBodyBytes: number;
  latencyMs: number;
  corsOrigin: string | string[] | undefined;
  now: () => Date;
  /** Called once per request with `METHOD path status ms` (never headers or bodies). */
  logRequest: ((line: string) => void) | undefined;
  /** Called with unexpected errors (a 500 answer). */
  logError: (error: unknown) => void;
  /** Capacity, faults and counters of the API calls. */
  load: LoadOptions;
  /** What `GET /_emulator/stats` answers. */
  stats: () => unknown;
}

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: JSON_HEADERS,
  });
}

function answer(a: Answer): Response {
  return json(a.status, a.body);
}

function detail(status: number, message: string): Response {
  return json(status, { detail: message });
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

/** Stops the start-up when an operation of the spec has no handler: none is skipped silently. */
function checkHandlers(validators: SpecValidators, handlerOf: (id: string) => unknown): void {
  const missing = validators.operations
    .map((op) => op.operationId)
    .filter((id) => handlerOf(id) === undefined);
  if (missing.length > 0) {
    throw new Error(
      `the emulator has no handler for the spec operation(s) ${missing.join(', ')}; add them to src/internal/handlers before serving this spec`,
    );
  }
}

/** Stops the start-up when a before-validator names a schema the spec does not have. */
function checkPointers(validators: SpecValidators, pointers: Iterable<string>): void {
  for (const pointer of pointers) {
    const node = pointer
      .slice(1)
      .split('/')
      .reduce<unknown>(
        (n, seg) =>
          typeof n === 'object' && n !== null ? (n as Record<string, unknown>)[seg] : undefined,
        validators.doc,
      );
    if (typeof node !== 'object' || node === null) {
      throw new Error(`the spec has no schema at ${pointer}, which the emulator's rules read`);
    }
  }
}

export function createApp(options: AppOptions): Hono<{ Bindings: HttpBindings }> {
  const { store, validators, keys, profile } = options;
  const behaviour = BEHAVIOUR[profile];
  const handlers = createHandlers({
    store,
    profile,
    behaviour,
    latencyMs: options.latencyMs,
    now: options.now,
    version: options.version,
    checkConfig: connectorConfigChecker(validators.doc),
    deletions: options.deletions,
  });
  checkHandlers(validators, (id) => checkedHandler(handlers, id));
  const before = beforeValidators(profile, validators.doc);
  checkPointers(validators, before.keys());
  // Forms arrive as text, so their fields are read by their schema in every profile; JSON bodies
  // only where the profile reads them laxly.
  const formCoercer = new LaxCoercer(validators);
  const jsonCoercer = behaviour.laxJson ? new LaxCoercer(validators, before) : undefined;
  const routes = routesFor(validators, profile);
  const isKnownPath = knownPathMatcher(routes);
  const app = new Hono<{ Bindings: HttpBindings }>();

  if (options.corsOrigin !== undefined) {
    app.use(
      '*',
      cors({
        origin: options.corsOrigin,
        // x-kis-retry-count: sent by @kis/client on every request (the web console needs it).
        allowHeaders: ['authorization', 'content-type', 'x-kis-retry-count'],
        allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
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
  // read; a chunked body is counted while it is read (body.ts).
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

  app.use(`${API_PREFIX}/*`, loadMiddleware(options.load));

  /** A decoded JSON body validated against its schema, read laxly first where the profile does. */
  const checkJson = (info: RequestBodyInfo, body: unknown) => {
    let issues = validators.check(info.validate, body, ['body']);
    if (issues.length === 0 || jsonCoercer === undefined) return { body, issues };
    const coerced = jsonCoercer.coerce(info.schema, body);
    if (coerced === body) return { body, issues };
    issues = validators.check(info.validate, coerced, ['body']);
    return { body: coerced, issues };
  };

  const mount = (route: Route, handler: CheckedHandler): void => {
    const { op } = route;
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    const queryParams = op.parameters.filter((p) => p.in === 'query');
    app.on(op.method.toUpperCase(), route.honoPath, async (c) => {
      if (
        behaviour.matchDecodedPath &&
        pathParams.some((p) => c.req.param(p.name)?.includes('/'))
      ) {
        return answer(ANSWERS.routeNotFound());
      }
      const info = op.body;
      // FastAPI decodes the body before it checks the key (deployed servers).
      const early =
        behaviour.decodeBeforeAuth && info?.mediaType === 'application/json'
          ? await readJsonBody(c, info, options.maxBodyBytes)
          : undefined;
      if (early !== undefined && early.decodeIssues.length > 0) {
        return answer(ANSWERS.validation(profile, early.decodeIssues));
      }
      if (route.role !== undefined) {
        const granted = keys.roleOf(c.req.header('authorization'));
        if (granted === undefined) return answer(ANSWERS.notAuthenticated(profile));
        if (!roleAllows(granted, route.role)) {
          return answer(ANSWERS.missingRole(profile, route.role));
        }
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
      const input: Parameters<CheckedHandler>[0] = {
        params,
        body: undefined,
        fields: undefined,
        form: undefined,
        rawParams:
          pathParams.length > 0 ? rawPathParams(route.honoPath, new URL(c.req.url).pathname) : {},
      };
      if (info?.mediaType === 'application/json') {
        const read = early ?? (await readJsonBody(c, info, options.maxBodyBytes));
        issues.push(...read.decodeIssues, ...read.issues);
        if (read.body !== undefined) {
          const checked = checkJson(info, read.body);
          input.body = checked.body;
          issues.push(...checked.issues);
        }
      } else if (info?.mediaType === 'multipart/form-data') {
        const read = await readFormBody(c, op, options.maxBodyBytes);
        issues.push(...read.decodeIssues, ...read.issues);
        const fields = formCoercer.coerce(info.schema, read.fields);
        issues.push(...validators.check(info.validate, fields, ['body']));
        input.form = read.form;
        input.fields = fields;
      }
      if (issues.length > 0) return answer(ANSWERS.validation(profile, issues));
      const result = await handler(input);
      return json(result.status, result.body);
    });
  };

  for (const route of routes) {
    const handler = checkedHandler(handlers, route.op.operationId);
    if (handler !== undefined) mount(route, handler);
  }

  // Outside /api: the read-only admin page and the JSON state view (no secrets in either).
  app.get('/', (c) => c.html(adminPage(store, profile)));
  app.get('/_emulator/state', (c) => {
    const all = c.req.query('all');
    const full = c.req.query('full');
    const limitText = c.req.query('limit') ?? '1000';
    const limit = limitText === 'all' ? -1 : Number(limitText);
    if (!(limit === -1 || (Number.isInteger(limit) && limit >= 0))) {
      return detail(400, "limit must be a non-negative integer or 'all'");
    }
    return c.json({
      profile,
      ...stateView(store, {
        allConnectors: all === '1' || all === 'true',
        fullDocuments: full === '1' || full === 'true',
        documentLimit: limit,
      }),
    });
  });
  app.get('/_emulator/documents/:id', (c) => {
    const doc = store.documents.get(c.req.param('id'));
    return doc === undefined
      ? detail(404, `Document '${c.req.param('id')}' not found`)
      : c.json(doc);
  });
  app.get('/_emulator/health', (c) => c.json({ status: 'ok', profile }));
  app.get('/_emulator/stats', (c) => c.json(options.stats()));
  const docs = async (c: Context<{ Bindings: HttpBindings }>): Promise<Response> => {
    const html = await readReference();
    return html === undefined
      ? detail(404, 'The API reference is not built: run `pnpm --filter @kis/spec build`')
      : c.html(html);
  };
  app.get('/docs', docs);
  app.get('/docs/', docs);
  const adminOnly = (c: Context<{ Bindings: HttpBindings }>): Response | undefined => {
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
    const info = validators.operation('ingestDocument')?.body;
    if (info === undefined) return detail(500, 'the spec has no ingestDocument operation');
    const read = await readJsonBody(c, info, options.maxBodyBytes);
    const checked =
      read.body === undefined ? { body: undefined, issues: [] } : checkJson(info, read.body);
    const issues = [...read.decodeIssues, ...read.issues, ...checked.issues];
    if (issues.length > 0) return answer(ANSWERS.validation(profile, issues));
    const request = checked.body as Schemas['IngestionRequest']; // validated just above
    const { doc, pairId } = prepareIngestion(
      { store, profile, behaviour },
      request,
      options.now(),
      false,
    );
    const result = store.documents.upsert(doc, pairId);
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
    return c.json({ paused: options.indexer.paused, ...store.documents.indexCounts() });
  });

  app.notFound((c) =>
    answer(isKnownPath(c.req.path) ? ANSWERS.methodNotAllowed() : ANSWERS.routeNotFound()),
  );

  app.onError((error) => {
    if (error instanceof AnswerError) return answer(error.answer);
    if (error instanceof HttpError) return detail(error.status, error.message);
    if (error instanceof ValidationFailure)
      return answer(ANSWERS.validation(profile, error.issues));
    options.logError(error);
    return answer(ANSWERS.internalError(profile));
  });

  return app;
}
