// The HTTP application (hono): one route per operation the profile serves, under `/api`, each
// going through the same pipeline (`api-routes.ts`): the key and what it may do, parameters, the
// body, then the operation's handler. Outside `/api`: the admin page, the state view, the HTML API
// reference and the control calls (`control-routes.ts`).
import type { HttpBindings } from '@hono/node-server';
import {
  ANSWERS,
  type Edition,
  type IndexBackend,
  type Profile,
  type ServerKind,
} from '@kis/rules';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { AccessGate } from './access.js';
import { type ApiPipeline, answer, json, mountOperation } from './api-routes.js';
import type { KeyRing } from './auth.js';
import { LaxCoercer } from './coerce.js';
import { connectorConfigChecker } from './connector-configs.js';
import { mountControlRoutes } from './control-routes.js';
import { AnswerError, HttpError, ValidationFailure } from './errors.js';
import { createHandlers, type HandlerContext } from './handlers/index.js';
import type { IndexFaults } from './index-faults.js';
import type { IndexWriter } from './index-writer.js';
import type { Indexer } from './indexer.js';
import { type LoadOptions, loadMiddleware } from './load.js';
import { checkedHandler } from './op-types.js';
import { BEHAVIOUR, beforeValidators } from './profile.js';
import { API_PREFIX, knownPathMatcher, routesFor } from './routes.js';
import type { Store } from './store/index.js';
import type { PairTasks } from './tasks/pair-tasks.js';
import type { TrustControls } from './trust-controls.js';
import { mountTrustRoutes } from './trust-routes.js';
import type { SpecValidators } from './validation.js';
import type { Visibility } from './visibility.js';

export interface AppOptions {
  store: Store;
  indexer: Indexer;
  /** The background work on pairs: index attempts, prunes, deletions. */
  tasks: PairTasks;
  /** Validators compiled from the profile's view of the spec (`profileSpec`). */
  validators: SpecValidators;
  keys: KeyRing;
  profile: Profile;
  /** The kind of server played: `seed`, or the deployed line. */
  kind: ServerKind;
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
  /** Deletes everything and starts over (`/_emulator/reset`). */
  reset: () => void;
  /** The edition played (user groups; groups in access). */
  edition: Edition;
  /** The release played for release-dependent facts (undefined: the newest). */
  serverVersion: string | undefined;
  indexBackend: IndexBackend;
  visibility: Visibility;
  writer: IndexWriter;
  indexFaults: IndexFaults;
  /** The control calls of the trust surface (sabotage, model switch, documents' access). */
  trust: TrustControls;
}

function detail(status: number, message: string): Response {
  return json(status, { detail: message });
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

type App = Hono<{ Bindings: HttpBindings }>;

/** CORS, request lines and the body limit, before any route. */
function useMiddleware(app: App, options: AppOptions): void {
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
}

function handlerContext(options: AppOptions): HandlerContext {
  return {
    store: options.store,
    profile: options.profile,
    kind: options.kind,
    behaviour: BEHAVIOUR[options.profile],
    latencyMs: options.latencyMs,
    now: options.now,
    version: options.version,
    checkConfig: connectorConfigChecker(options.validators.doc),
    tasks: options.tasks,
    edition: options.edition,
    serverVersion: options.serverVersion,
    indexBackend: options.indexBackend,
    visibility: options.visibility,
    writer: options.writer,
    indexFaults: options.indexFaults,
  };
}

export function createApp(options: AppOptions): App {
  const { store, validators, profile } = options;
  const behaviour = BEHAVIOUR[profile];
  const access = new AccessGate(options.keys, store, profile, options.kind, options.edition);
  const handlers = createHandlers(handlerContext(options));
  checkHandlers(validators, (id) => checkedHandler(handlers, id));
  const routes = routesFor(validators, profile);
  access.checkRules(routes.map((r) => r.op.operationId));
  const before = beforeValidators(profile, validators.doc);
  checkPointers(validators, before.keys());
  const pipeline: ApiPipeline = {
    validators,
    access,
    profile,
    behaviour,
    maxBodyBytes: options.maxBodyBytes,
    // Forms arrive as text, so their fields are read by their schema in every profile; JSON
    // bodies only where the profile reads them laxly.
    formCoercer: new LaxCoercer(validators),
    jsonCoercer: behaviour.laxJson ? new LaxCoercer(validators, before) : undefined,
  };
  const isKnownPath = knownPathMatcher(routes);
  const app: App = new Hono<{ Bindings: HttpBindings }>();
  useMiddleware(app, options);
  for (const route of routes) {
    const handler = checkedHandler(handlers, route.op.operationId);
    if (handler !== undefined) mountOperation(app, pipeline, route, handler);
  }
  mountControlRoutes(app, {
    store,
    profile,
    keys: options.keys,
    indexer: options.indexer,
    tasks: options.tasks,
    pipeline,
    ingestion: { store, profile, behaviour },
    maxBodyBytes: options.maxBodyBytes,
    now: options.now,
    stats: options.stats,
    reset: options.reset,
  });
  mountTrustRoutes(app, options.keys, options.trust);
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
