/**
 * `createKisClient({ baseUrl, apiKey })`: the typed client. Resource methods throw typed errors;
 * `kis.api` is the raw openapi-fetch client with the same auth, retries, time-outs and logging.
 * The same client works against servers that follow the seed and deployed servers, with no
 * option to set: where their routes differ it finds the served one (README, "Servers").
 */
import createClient, { type Client } from 'openapi-fetch';
import type {
  ApplyOptions,
  ApplyPlan,
  ApplyResult,
  DesiredState,
  PlanOptions,
} from './declarative.js';
import type { DoctorOptions, DoctorReport } from './doctor.js';
import type { ClientValidationIssue } from './errors.js';
import { uploadedFile } from './file-id.js';
import type { IngestEngine, IngestInput, IngestManyOptions, IngestRun } from './ingest.js';
import { type BackoffOptions, DEFAULT_BACKOFF } from './internal/backoff.js';
import { type Answer, type CallContext, control, createUnwrap } from './internal/call.js';
import { lazyIngestRun } from './internal/lazy-run.js';
import { checkInt, fail, validateOptions } from './internal/options.js';
import { createRedactor } from './internal/redact.js';
import type { RouteMemory } from './internal/route-variants.js';
import {
  type CallControl,
  CONTROL_KEY,
  createTransport,
  fetchSender,
  LightRequest,
  type RequestOptions,
  type Sender,
} from './internal/transport.js';
import type { WorkflowDeps } from './internal/workflows.js';
import { LevelLogger, type Logger, type LogLevel, logLevelFromEnv } from './logging.js';
import type { SyncItem, SyncOptions, SyncSession } from './sync.js';
import type {
  CcPairFullInfo,
  Connector,
  ConnectorCreateInput,
  ConnectorCreateRequest,
  ConnectorCredentialPairMetadata,
  ConnectorStatus,
  Credential,
  CredentialBase,
  CredentialCreateInput,
  CredentialDataUpdateRequest,
  IngestedDocumentSummary,
  IngestionDocumentInput,
  IngestionRequestInput,
  IngestionResult,
  KnownOrNewSource,
  ObjectCreationIdResponse,
  paths,
  StatusResponse,
  UserFile,
  UserFileUploadResponse,
} from './types.js';

export type { RequestOptions };

export interface KisClientOptions {
  /** API root including the `/api` prefix, e.g. `https://kis.example.com/api`. */
  baseUrl: string;
  /** API key sent as `Authorization: Bearer <key>`. Never logged or stored on errors. */
  apiKey: string;
  /**
   * Custom fetch (tests, proxies, undici dispatchers, instrumented fetch). Default: under Node,
   * node:http(s) with a keep-alive agent (several times less CPU per call than Node's fetch);
   * elsewhere `globalThis.fetch`.
   */
  fetch?: typeof globalThis.fetch | undefined;
  /** Retries after the first attempt, for 408/409/429/5xx, connection failures and time-outs. Default 2. */
  maxRetries?: number | undefined;
  /** Time-out of each attempt in ms (the whole answer must arrive within it). Default 120 000. */
  timeoutMs?: number | undefined;
  /** `off` | `error` | `warn` | `info` | `debug`. Default: `KIS_LOG`, else `warn`. */
  logLevel?: LogLevel | undefined;
  /** Where log lines go. Default: `console`. */
  logger?: Logger | undefined;
  /** Headers added to every request (e.g. `user-agent`). */
  headers?: Record<string, string> | undefined;
  /** Backoff tuning: `{ initialDelayMs: 500, maxDelayMs: 8000 }` by default. */
  backoff?: Partial<BackoffOptions> | undefined;
}

/** A file to upload: a `Blob`/`File`, or bytes with a file name. */
export type UploadFile =
  | Blob
  | {
      data: Blob | Uint8Array | ArrayBuffer | string;
      fileName: string;
      contentType?: string | undefined;
    };

export interface PrivateKeyUpdate {
  /** Display name of the credential. */
  name: string;
  /** The credential's configuration: an object (serialized for you) or a JSON object string. */
  credentialJson: Record<string, unknown> | string;
  /** The private-key file (a PKCS#12 `.pfx` on deployed servers). */
  file: UploadFile;
  /** Key inside `credential_json` under which the server stores the processed file. */
  fieldKey: string;
  /** Kind of file, e.g. `sharepoint_pfx_file`. */
  typeDefinitionKey: string;
}

export interface SetupConnectorInput<S extends KnownOrNewSource = KnownOrNewSource> {
  /** The connector to create (`access_type` is sent lower-case; any source value). */
  connector: ConnectorCreateInput<S>;
  /**
   * `'auto'` (default): `0` for a source that needs no credential (the rule book's list), else
   * the one credential whose `source` matches; or an explicit credential id.
   */
  credential?: 'auto' | number | undefined;
  /** Overrides for the association body (default: the connector's name, access type and groups). */
  association?: Partial<ConnectorCredentialPairMetadata> | undefined;
}

export interface SetupConnectorResult {
  connectorId: number;
  credentialId: number;
  /** The new pair id from the association answer, or null when the server gave none. */
  ccPairId: number | null;
}

/** The association's answer, with the pair id it carries, if any. */
export interface AssociationResult extends StatusResponse {
  /**
   * The new pair's id (`data` of a `success: true` answer), else null. A pair that already exists
   * answers `success: false`, and deployed servers put the connector id in `data` then.
   */
  ccPairId: number | null;
}

/** The server's release, from `GET /version`. */
export interface ServerVersion {
  /** e.g. `v4.6.1`. */
  backendVersion: string;
}

export interface IngestDocumentOptions extends RequestOptions {
  /** Pair the document is attached to. Omitted: the server's default pair. */
  ccPairId?: number | null | undefined;
  /** Validate against the spec before sending (default true). */
  validate?: boolean | undefined;
}

export interface IngestDocumentResult {
  /** Id the document is stored under. */
  documentId: string;
  /** True when an existing document was updated. */
  alreadyExisted: boolean;
}

export interface KisClient {
  /** The normalized base URL (no trailing slash). */
  readonly baseUrl: string;
  /**
   * The raw openapi-fetch client, typed by the spec's `paths`, with auth, retries, time-outs and
   * logging. Keeps openapi-fetch's `{ data, error, response }` result for non-2xx answers;
   * throws `APIConnectionError`/`APITimeoutError`/`APIUserAbortError`/`HtmlResponseError`.
   * Per-call controls: `signal` in the init, or `kis.apiWith({ timeoutMs, maxRetries })`.
   */
  readonly api: Client<paths>;
  /**
   * The raw client with per-call controls (`timeoutMs`, `maxRetries`, `signal`, `headers`) for
   * every call made through it: `kis.apiWith({ timeoutMs: 5_000 }).GET('/svc-api/ingestion')`.
   */
  apiWith(options: RequestOptions): Client<paths>;
  readonly connectors: {
    /**
     * POST /manage/admin/connector, after checking `connector_specific_config` against the
     * source's schema (`ConfigValidationError`, nothing sent). Not retried after a response may
     * have been lost.
     */
    create<S extends KnownOrNewSource>(
      body: ConnectorCreateInput<S>,
      options?: RequestOptions,
    ): Promise<ObjectCreationIdResponse>;
    /**
     * PUT /manage/connector/{connectorId}/credential/{credentialId} (deployed servers), else the
     * seed's /manage/admin/... path. The body always has a `name` (default
     * `"Connector 7 / Credential 3"`) and a lower-case `access_type` (default `public`).
     */
    associateCredential(
      connectorId: number,
      credentialId: number,
      body?: ConnectorCredentialPairMetadata,
      options?: RequestOptions,
    ): Promise<AssociationResult>;
    /**
     * DELETE /manage/connector/{connectorId}/credential/{credentialId}: removes the pair at once,
     * documents left in the index (deployed servers; `success: false` when there was no pair).
     */
    dissociateCredential(
      connectorId: number,
      credentialId: number,
      options?: RequestOptions,
    ): Promise<StatusResponse>;
    /** GET /manage/connector: every connector but the ingestion one, with its credential ids. */
    list(options?: RequestOptions): Promise<Connector[]>;
    /** GET /manage/connector/{connectorId} (`NotFoundError` when unknown). */
    get(connectorId: number, options?: RequestOptions): Promise<Connector>;
    /**
     * PATCH /manage/admin/connector/{connectorId}: a full replace with the create body (a left-out
     * `refresh_freq` becomes null).
     */
    update(
      connectorId: number,
      body: ConnectorCreateRequest,
      options?: RequestOptions,
    ): Promise<Connector>;
    /**
     * DELETE /manage/admin/connector/{connectorId}: removes the connector and its pairs at once,
     * leaving their documents in the index (`pairs.requestDeletion` cleans the index).
     */
    delete(connectorId: number, options?: RequestOptions): Promise<StatusResponse>;
  };
  readonly pairs: {
    /** GET /manage/admin/connector/status: every pair with its connector and credential. */
    list(options?: RequestOptions): Promise<ConnectorStatus[]>;
    /** GET /manage/admin/cc-pair/{ccPairId}: one pair with its status (`NotFoundError` when gone). */
    get(ccPairId: number, options?: RequestOptions): Promise<CcPairFullInfo>;
    /** PUT /manage/admin/cc-pair/{ccPairId}/name. */
    rename(ccPairId: number, name: string, options?: RequestOptions): Promise<void>;
    /** PUT /manage/admin/cc-pair/{ccPairId}/status. */
    setStatus(
      ccPairId: number,
      status: 'ACTIVE' | 'PAUSED',
      options?: RequestOptions,
    ): Promise<void>;
    /**
     * POST /manage/admin/deletion-attempt: the server removes the pair's documents, the pair,
     * then the connector if it has no pair left, in the background (`waitUntilGone`).
     */
    requestDeletion(
      connectorId: number,
      credentialId: number,
      options?: RequestOptions,
    ): Promise<void>;
    /** Polls the pair until the server no longer has it (default: up to 10 minutes). */
    waitUntilGone(
      ccPairId: number,
      options?: RequestOptions & { waitMs?: number | undefined },
    ): Promise<void>;
  };
  readonly credentials: {
    /** GET /manage/admin/credential. */
    list(options?: RequestOptions): Promise<Credential[]>;
    /**
     * POST /manage/credential, after checking `credential_json` against the source's keys
     * (`ConfigValidationError`, nothing sent; values never shown). Not retried after a response
     * may have been lost.
     */
    create<S extends KnownOrNewSource>(
      body: CredentialCreateInput<S>,
      options?: RequestOptions,
    ): Promise<ObjectCreationIdResponse>;
    /** GET /manage/credential/{credentialId}, its values masked (servers answer 401 when unknown). */
    get(credentialId: number, options?: RequestOptions): Promise<Credential>;
    /**
     * PUT /manage/admin/credential/{credentialId}: sets the name and merges `credential_json`
     * into the stored keys (a key cannot be removed this way).
     */
    update(
      credentialId: number,
      body: CredentialDataUpdateRequest,
      options?: RequestOptions,
    ): Promise<Credential>;
    /** DELETE /manage/credential/{credentialId} (400 when unknown or still used by a pair). */
    delete(credentialId: number, options?: RequestOptions): Promise<StatusResponse>;
    /** PUT /manage/admin/credential/private-key/{credentialId} (multipart). */
    updatePrivateKey(
      credentialId: number,
      input: PrivateKeyUpdate,
      options?: RequestOptions,
    ): Promise<CredentialBase>;
  };
  readonly files: {
    /**
     * POST /user/projects/file/upload (deployed servers), else the seed's /user/file/upload
     * (multipart, one `files` part per file). A bare-array answer (servers up to 1.9) comes back
     * as `{ user_files, rejected_files: [] }`.
     */
    upload(
      files: UploadFile | readonly UploadFile[],
      options?: RequestOptions,
    ): Promise<UserFileUploadResponse>;
    /** Upload one image; resolves with its `file_id` (the value of `image_file_id`). */
    uploadImage(
      file: UploadFile,
      options?: RequestOptions,
    ): Promise<{ fileId: string; file: UserFile }>;
  };
  readonly ingestion: {
    /** POST /svc-api/ingestion, as given (no validation, no id fixing). */
    ingest(request: IngestionRequestInput, options?: RequestOptions): Promise<IngestionResult>;
    /** GET /svc-api/ingestion. */
    list(options?: RequestOptions): Promise<IngestedDocumentSummary[]>;
    /** DELETE /svc-api/ingestion/{documentId} (the stored id). */
    delete(documentId: string, options?: RequestOptions): Promise<StatusResponse | null>;
    /** GET /svc-api/connector-docs/{ccPairId}. */
    listConnectorDocuments(
      ccPairId: number,
      options?: RequestOptions,
    ): Promise<IngestedDocumentSummary[]>;
  };
  /** GET /version: the server's release, or null when it has no such route (seed servers). */
  version(options?: RequestOptions): Promise<ServerVersion | null>;
  /**
   * Checks the server, the base URL and the key with requests that change nothing: it answers,
   * the base URL includes /api, the key is accepted and can manage connectors, which route
   * variants and release the server has, and (with `ccPairId`) that the pair exists.
   */
  doctor(options?: DoctorOptions): Promise<DoctorReport>;
  /**
   * Create a connector, resolve its credential and associate them: the seed's three steps. The
   * config is checked against the source's schema before the first request.
   */
  setupConnector<S extends KnownOrNewSource>(
    input: SetupConnectorInput<S>,
    options?: RequestOptions,
  ): Promise<SetupConnectorResult>;
  /** Validate, fix the id, send one document. */
  ingestDocument(
    document: IngestionDocumentInput,
    options?: IngestDocumentOptions,
  ): Promise<IngestDocumentResult>;
  /**
   * Make pair `ccPairId` equal to `source` (documents with ids): resolves with the plan (create,
   * update, unchanged, delete) once the source is read; `run()` carries it out (README, "Sync").
   */
  sync(
    source: Iterable<SyncItem> | AsyncIterable<SyncItem>,
    options: SyncOptions,
  ): Promise<SyncSession>;
  /**
   * Compare a desired state (connectors, credentials, pairs: what `kis.yaml` holds) with the
   * server's: every problem of the desired state is reported at once before any request
   * (`DesiredStateError`); the plan holds no secret (README, "Declarative set-up").
   */
  plan(desired: DesiredState, options?: PlanOptions): Promise<ApplyPlan>;
  /** Carry out a plan from `kis.plan`; stops at the first failure (the next plan resumes). */
  apply(plan: ApplyPlan, options?: ApplyOptions): Promise<ApplyResult>;
  /** Bulk ingestion with bounded concurrency, retries, throttling, progress and resume. */
  ingestMany(
    source: Iterable<IngestInput> | AsyncIterable<IngestInput>,
    options?: IngestManyOptions,
  ): IngestRun;
}

let lazyLoad: Promise<typeof import('./internal/workflows.js')> | undefined;
/**
 * The workflows and the rarely used calls, loaded on first use (one lazy part): a smaller core
 * for apps that only make plain calls.
 */
const lazyPart = () => {
  lazyLoad ??= import('./internal/workflows.js');
  return lazyLoad;
};

type Workflows = typeof import('./internal/workflows.js');

/** A call of the lazy part that takes the call context first, as a method without it. */
const lazyCall =
  <A extends unknown[], R>(
    ctx: CallContext,
    pick: (w: Workflows) => (c: CallContext, ...a: A) => Promise<R>,
  ) =>
  async (...args: A): Promise<R> =>
    pick(await lazyPart())(ctx, ...args);

/** Create a client. Holds no global state; create as many as you need. */
export function createKisClient(options: KisClientOptions): KisClient {
  return createKisClientWith(options);
}

/** The sender: `options.fetch`, else the default one given (Node), else `globalThis.fetch`. */
function senderFor(options: KisClientOptions, defaultSender?: () => Sender): Sender {
  const custom = options.fetch;
  if (custom === undefined && defaultSender) return defaultSender();
  const baseFetch = custom ?? globalThis.fetch;
  if (typeof baseFetch !== 'function') fail('fetch', 'given: no global fetch here');
  return fetchSender((input, init) => baseFetch(input, init));
}

/**
 * `createKisClient` with the sender to use when `options.fetch` is not given (the Node entry
 * passes its node:http sender); without one, `globalThis.fetch`. `loadSync` loads `kis.sync`
 * on its own (the Node entry: a sync that sends nothing needs none of the rest of the lazy part,
 * ~20 ms to load); without it, `kis.sync` comes with the lazy part (one chunk in a browser).
 */
export function createKisClientWith(
  options: KisClientOptions,
  defaultSender?: () => Sender,
  loadSync?: () => Promise<Pick<Workflows, 'createSync'>>,
): KisClient {
  validateOptions(options);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const redactor = createRedactor(options.apiKey);
  const level = options.logLevel ?? logLevelFromEnv() ?? 'warn';
  const log = new LevelLogger(level, options.logger ?? console, redactor.text, redactor.value);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const transport = createTransport({
    send: senderFor(options, defaultSender),
    apiKey: options.apiKey,
    maxRetries: options.maxRetries ?? 2,
    timeoutMs,
    backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
    headers: options.headers ?? {},
    log,
    redactor,
  });
  // kis.api: standard openapi-fetch (real Request objects, so user middleware works as
  // documented), made on first use: openapi-fetch reads the global `Request` when it makes a
  // client, which in Node loads Node's own copy of undici (~20 ms) that other calls do not need
  let api: Client<paths> | undefined;
  // internal client for resource methods: same transport, without building a Request per call
  const inner = createClient<paths>({
    baseUrl,
    fetch: transport.fetch,
    Request: LightRequest as unknown as typeof Request,
  });
  const unwrap = createUnwrap(baseUrl, redactor, log);
  const routes: RouteMemory = {};
  const ctx: CallContext = {
    baseUrl,
    inner,
    // openapi-fetch's per-request `fetch` option: the call's controls travel with it, typed
    via: (ctl) => (request) => transport.fetch(request, ctl),
    unwrap,
    send: (method, path, body, ctl) =>
      transport.exchange(
        new LightRequest(baseUrl + path, {
          method,
          headers: typeof body === 'string' ? { 'content-type': 'application/json' } : {},
          body,
          [CONTROL_KEY]: ctl,
        }),
      ),
    routes,
    log,
    redactor,
  };
  const via = ctx.via;

  const connectors: KisClient['connectors'] = {
    create: async (body, opts) => (await lazyPart()).create(ctx, body, opts),
    async associateCredential(connectorId, credentialId, body, opts) {
      checkInt('associateCredential: connectorId', connectorId);
      checkInt('associateCredential: credentialId', credentialId);
      return (await lazyPart()).associate(ctx, connectorId, credentialId, body, opts);
    },
    async dissociateCredential(connectorId, credentialId, opts) {
      checkInt('dissociateCredential: connectorId', connectorId);
      checkInt('dissociateCredential: credentialId', credentialId);
      return (await lazyPart()).dissociate(ctx, connectorId, credentialId, opts);
    },
    list: lazyCall(ctx, (w) => w.listConnectors),
    get: lazyCall(ctx, (w) => w.getConnector),
    update: lazyCall(ctx, (w) => w.updateConnector),
    delete: lazyCall(ctx, (w) => w.deleteConnector),
  };

  const pairs: KisClient['pairs'] = {
    list: lazyCall(ctx, (w) => w.listPairs),
    get: lazyCall(ctx, (w) => w.getPair),
    rename: lazyCall(ctx, (w) => w.renamePair),
    setStatus: lazyCall(ctx, (w) => w.setPairStatus),
    requestDeletion: lazyCall(ctx, (w) => w.requestPairDeletion),
    waitUntilGone: lazyCall(ctx, (w) => w.waitUntilPairGone),
  };

  const credentials: KisClient['credentials'] = {
    list(opts) {
      const path = '/manage/admin/credential';
      return unwrap(inner.GET(path, { fetch: via(control(opts)) }), 'GET', path);
    },
    create: async (body, opts) => (await lazyPart()).createCredential(ctx, body, opts),
    get: lazyCall(ctx, (w) => w.getCredential),
    update: lazyCall(ctx, (w) => w.updateCredential),
    delete: lazyCall(ctx, (w) => w.deleteCredential),
    async updatePrivateKey(credentialId, input, opts) {
      checkInt('updatePrivateKey: credentialId', credentialId);
      return (await lazyPart()).updatePrivateKey(ctx, credentialId, input, opts);
    },
  };

  const files: KisClient['files'] = {
    upload: async (input, opts) => (await lazyPart()).upload(ctx, input, opts),
    async uploadImage(file, opts) {
      const { answer, name } = await (await lazyPart()).uploadOne(ctx, file, opts);
      return uploadedFile(answer, name);
    },
  };

  // The ingestion call is the bulk hot path: it goes to the transport directly (same auth,
  // retries, time-outs and error parsing as every other call) without openapi-fetch's per-call
  // header merging and serializer set-up. Its types are still the spec's. So does a pair's
  // listing (thousands of documents, read by every kis.sync): read as text and parsed once,
  // without the Headers and Response objects of openapi-fetch (in Node, building them loads
  // Node's own copy of undici: ~20 ms of a CLI command that sends this one request).
  async function sendJson<T>(
    method: string,
    path: string,
    body: string | null,
    ctl: CallControl,
  ): Promise<Answer<T>> {
    const response = await ctx.send(method, path, body, ctl);
    const text = response.text;
    if (response.status < 200 || response.status >= 300) {
      let error: unknown = text;
      try {
        error = JSON.parse(text);
      } catch {
        // keep the text
      }
      return { error, response };
    }
    return { data: JSON.parse(text) as T, response };
  }

  function ingestRaw(body: IngestionRequestInput, ctl: CallControl): Promise<IngestionResult> {
    const path = '/svc-api/ingestion';
    return unwrap(sendJson<IngestionResult>('POST', path, JSON.stringify(body), ctl), 'POST', path);
  }

  const ingestion: KisClient['ingestion'] = {
    ingest(request, opts) {
      return ingestRaw(request, control(opts));
    },
    list(opts) {
      const path = '/svc-api/ingestion';
      return unwrap(inner.GET(path, { fetch: via(control(opts)) }), 'GET', path);
    },
    async delete(documentId, opts) {
      if (typeof documentId !== 'string' || documentId === '') {
        throw new TypeError('ingestion.delete: documentId must be a non-empty string');
      }
      const data = await unwrap(
        inner.DELETE('/svc-api/ingestion/{document_id}', {
          params: { path: { document_id: documentId } },
          fetch: via(control(opts)),
        }),
        'DELETE',
        `/svc-api/ingestion/${encodeURIComponent(documentId)}`,
      );
      return data ?? null;
    },
    listConnectorDocuments(ccPairId, opts) {
      checkInt('listConnectorDocuments: ccPairId', ccPairId);
      const path = `/svc-api/connector-docs/${ccPairId}`;
      return unwrap(
        sendJson<IngestedDocumentSummary[]>('GET', path, null, control(opts)),
        'GET',
        path,
      );
    },
  };

  const apiWith = (opts: RequestOptions): Client<paths> =>
    createClient<paths>({ baseUrl, fetch: (request) => transport.fetch(request, { ...opts }) });

  const engine: IngestEngine = {
    log,
    timeoutMs,
    ingest: ingestRaw,
    uploadImage: async (file, opts) => (await files.uploadImage(file, opts)).fileId,
  };
  const deps: WorkflowDeps = { connectors, credentials, log, redactor, engine };

  const client: KisClient = {
    baseUrl,
    get api() {
      api ??= createClient<paths>({ baseUrl, fetch: transport.fetch });
      return api;
    },
    apiWith,
    connectors,
    credentials,
    pairs,
    files,
    ingestion,
    plan: async (desired, opts) =>
      (await lazyPart()).createPlan(ctx, credentials.list, desired, opts),
    apply: lazyCall(ctx, (w) => w.applyPlan),
    version: async (opts) => (await lazyPart()).serverVersion(ctx, opts),
    doctor: async (opts) => (await lazyPart()).runDoctor(ctx, { credentials, ingestion }, opts),
    setupConnector: async (input, opts) => (await lazyPart()).setupConnector(deps, input, opts),
    ingestDocument: async (document, opts) =>
      (await lazyPart()).ingestDocument(deps, document, opts),
    ingestMany: (source, opts) => lazyIngestRun(lazyPart, engine, source, opts),
    sync: async (source, opts) => (await (loadSync ?? lazyPart)()).createSync(client, source, opts),
  };
  return client;
}

/**
 * SHA-256 (hex) of the canonical JSON (sorted keys, no whitespace) of an ingestion request body:
 * the content hash a journal records. Loads on first use.
 */
export async function contentHash(requestBody: unknown): Promise<string> {
  return (await lazyPart()).contentHash(requestBody);
}

/**
 * Check an ingestion request body against the spec's `IngestionRequest` schema (the validators
 * compiled from the spec). Resolves with the issues; empty when valid (a `source` value the spec
 * does not list is let through: servers newer than the spec accept it).
 */
export async function checkIngestionRequest(body: unknown): Promise<ClientValidationIssue[]> {
  return (await lazyPart()).checkIngestionRequest(body);
}
