/**
 * `createKisClient({ baseUrl, apiKey })`: the typed client. Resource methods throw typed errors;
 * `kis.api` is the raw openapi-fetch client with the same auth, retries, time-outs and logging.
 */
import createClient, { type Client } from 'openapi-fetch';
import { APIError, type ClientValidationIssue, KisError } from './errors.js';
import type { IngestEngine, IngestInput, IngestManyOptions, IngestRun } from './ingest.js';
import { type BackoffOptions, DEFAULT_BACKOFF } from './internal/backoff.js';
import { lazyIngestRun } from './internal/lazy-run.js';
import { createRedactor } from './internal/redact.js';
import {
  type CallControl,
  CONTROL_KEY,
  createTransport,
  fetchSender,
  LightRequest,
  type Received,
  type RequestOptions,
  type Sender,
} from './internal/transport.js';
import type { WorkflowDeps } from './internal/workflows.js';
import { LevelLogger, LOG_LEVELS, type Logger, type LogLevel, logLevelFromEnv } from './logging.js';
import type {
  AccessType,
  ConnectorCreateRequest,
  ConnectorCredentialPairMetadata,
  Credential,
  CredentialBase,
  IngestedDocumentSummary,
  IngestionDocument,
  IngestionRequest,
  IngestionResult,
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

export interface SetupConnectorInput {
  /** The connector to create (`access_type` is sent lower-case). */
  connector: ConnectorCreateRequest;
  /**
   * `'auto'` (default): `0` for `file`/`web`, else the one credential whose `source` matches;
   * or an explicit credential id.
   */
  credential?: 'auto' | number | undefined;
  /** Overrides for the association body (default: the connector's name, access type and groups). */
  association?: Partial<ConnectorCredentialPairMetadata> | undefined;
}

export interface SetupConnectorResult {
  connectorId: number;
  credentialId: number;
  /** The new pair id from the association answer (`data`), or null when the server gave none. */
  ccPairId: number | null;
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
    /** POST /manage/admin/connector. Not retried after a response may have been lost. */
    create(
      body: ConnectorCreateRequest,
      options?: RequestOptions,
    ): Promise<ObjectCreationIdResponse>;
    /** PUT /manage/admin/connector/{connectorId}/credential/{credentialId} (body default `{access_type:'public'}`). */
    associateCredential(
      connectorId: number,
      credentialId: number,
      body?: ConnectorCredentialPairMetadata,
      options?: RequestOptions,
    ): Promise<StatusResponse>;
  };
  readonly credentials: {
    /** GET /manage/admin/credential. */
    list(options?: RequestOptions): Promise<Credential[]>;
    /** POST /manage/credential. Not retried after a response may have been lost. */
    create(body: CredentialBase, options?: RequestOptions): Promise<ObjectCreationIdResponse>;
    /** PUT /manage/admin/credential/private-key/{credentialId} (multipart). */
    updatePrivateKey(
      credentialId: number,
      input: PrivateKeyUpdate,
      options?: RequestOptions,
    ): Promise<CredentialBase>;
  };
  readonly files: {
    /** POST /user/file/upload (multipart, one `files` part per file). */
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
    ingest(request: IngestionRequest, options?: RequestOptions): Promise<IngestionResult>;
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
  /** Create a connector, resolve its credential and associate them: the seed's three steps. */
  setupConnector(
    input: SetupConnectorInput,
    options?: RequestOptions,
  ): Promise<SetupConnectorResult>;
  /** Validate, fix the id, send one document. */
  ingestDocument(
    document: IngestionDocument,
    options?: IngestDocumentOptions,
  ): Promise<IngestDocumentResult>;
  /** Bulk ingestion with bounded concurrency, retries, throttling, progress and resume. */
  ingestMany(
    source: Iterable<IngestInput> | AsyncIterable<IngestInput>,
    options?: IngestManyOptions,
  ): IngestRun;
}

const mayExist = (what: string, check: string) =>
  `The ${what} may or may not have been created; ${check} before retrying.`;
const CONNECTOR_HINT = mayExist('connector', 'list connectors');
const CREDENTIAL_HINT = mayExist('credential', 'list credentials');
const UPLOAD_HINT = mayExist('files', 'list the files');

type Result<T> = {
  data?: T;
  error?: unknown;
  response: Pick<Received, 'status' | 'statusText' | 'headers'>;
};

function checkInt(name: string, value: unknown, min = 0): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new TypeError(
      `${name} must be an integer ≥ ${min} (got ${JSON.stringify(value) ?? String(value)})`,
    );
  }
  return value;
}

function lowerAccess<T extends { access_type?: AccessType | undefined }>(body: T): T {
  const a = body.access_type;
  return typeof a === 'string' && a !== a.toLowerCase()
    ? { ...body, access_type: a.toLowerCase() as AccessType }
    : body;
}

function fail(what: string, expected: string, ...got: unknown[]): never {
  const shown = got.length > 0 ? ` (got ${JSON.stringify(got[0]) ?? String(got[0])})` : '';
  throw new TypeError(`createKisClient: ${what} must be ${expected}${shown}`);
}

function validateOptions(o: KisClientOptions): void {
  if (typeof o !== 'object' || o === null) fail('options', 'an object with baseUrl and apiKey');
  const base = o.baseUrl;
  let url: URL | undefined;
  try {
    url = new URL(base);
  } catch {
    // reported below
  }
  if (typeof base !== 'string' || !url || !/^https?:$/.test(url.protocol)) {
    fail('baseUrl', 'an absolute http(s) URL such as "https://kis.example.com/api"', base);
  }
  // a header value: visible ASCII (bearer tokens are), else every request would fail to send
  if (typeof o.apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(o.apiKey.trim())) {
    fail('apiKey', 'a non-empty string of printable ASCII characters');
  }
  const r = o.maxRetries;
  if (r !== undefined && !(Number.isInteger(r) && r >= 0)) fail('maxRetries', 'an integer ≥ 0', r);
  const t = o.timeoutMs;
  if (t !== undefined && !(typeof t === 'number' && t > 0))
    fail('timeoutMs', 'a positive number of ms', t);
  if (o.logLevel !== undefined && !LOG_LEVELS.includes(o.logLevel)) {
    fail('logLevel', `one of ${LOG_LEVELS.join(', ')}`, o.logLevel);
  }
  if (o.fetch !== undefined && typeof o.fetch !== 'function') fail('fetch', 'a function');
}

/** Create a client. Holds no global state; create as many as you need. */
export function createKisClient(options: KisClientOptions): KisClient {
  return createKisClientWith(options);
}

/**
 * `createKisClient` with the sender to use when `options.fetch` is not given (the Node entry
 * passes its node:http sender); without one, `globalThis.fetch`.
 */
export function createKisClientWith(
  options: KisClientOptions,
  defaultSender?: () => Sender,
): KisClient {
  validateOptions(options);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const redactor = createRedactor(options.apiKey);
  const level = options.logLevel ?? logLevelFromEnv() ?? 'warn';
  const log = new LevelLogger(level, options.logger ?? console, redactor.text, redactor.value);
  const maxRetries = options.maxRetries ?? 2;
  const timeoutMs = options.timeoutMs ?? 120_000;
  let send: Sender;
  const custom = options.fetch;
  if (custom === undefined && defaultSender) {
    send = defaultSender();
  } else {
    const baseFetch = custom ?? globalThis.fetch;
    if (typeof baseFetch !== 'function') fail('fetch', 'given: no global fetch here');
    send = fetchSender((input, init) => baseFetch(input, init));
  }
  const transport = createTransport({
    send,
    apiKey: options.apiKey,
    maxRetries,
    timeoutMs,
    backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
    headers: options.headers ?? {},
    log,
    redactor,
  });
  // kis.api: standard openapi-fetch (real Request objects, so user middleware works as documented)
  const api = createClient<paths>({
    baseUrl,
    fetch: transport.fetch as (input: Request) => Promise<Response>,
  });
  // internal client for resource methods: same transport, without building a Request per call
  const inner = createClient<paths>({
    baseUrl,
    fetch: transport.fetch as (input: Request) => Promise<Response>,
    Request: LightRequest as unknown as typeof Request,
  });

  let workflows: Promise<typeof import('./internal/workflows.js')> | undefined;
  // the workflows (bulk engine, spec validators) load on first use: a smaller core for apps
  // that only make plain calls
  const loadWorkflows = () => {
    workflows ??= import('./internal/workflows.js');
    return workflows;
  };

  function control(opts: RequestOptions | undefined, extra?: Partial<CallControl>): CallControl {
    return extra ? { ...opts, ...extra } : { ...opts };
  }

  async function unwrap<T>(
    pending: Promise<Result<T>>,
    method: string,
    path: string,
    hint?: (status: number) => string | undefined,
  ): Promise<T> {
    const url = baseUrl + path;
    let result: Result<T>;
    try {
      result = await pending;
    } catch (err) {
      if (KisError.isInstance(err)) throw err;
      if (err instanceof SyntaxError) {
        throw new APIError(
          redactor.text(
            `${method} ${url} answered 2xx with a body that is not JSON: ${err.message}`,
          ),
          { status: 200 },
        );
      }
      throw new KisError(
        redactor.text(`${method} ${url} failed: ${String((err as Error)?.message ?? err)}`),
      );
    }
    const { response } = result;
    if (response.status >= 200 && response.status < 300 && result.error === undefined) {
      return result.data as T;
    }
    // error formatting loads on the first failed answer (keeps the core entry small)
    const { errorFromResponse } = await import('./internal/error-parse.js');
    const error = errorFromResponse(response, result.error, {
      method,
      url,
      redactor,
      hint: hint?.(response.status),
    });
    log.log('info', error.message);
    throw error;
  }

  const unsafeHint = (text: string) => (status: number) =>
    status >= 500 && status !== 503 ? text : undefined;

  const connectors: KisClient['connectors'] = {
    create(body, opts) {
      const path = '/manage/admin/connector';
      return unwrap(
        inner.POST(path, {
          body: lowerAccess(body),
          [CONTROL_KEY]: control(opts, { retryMode: 'unsafe', unsafeHint: CONNECTOR_HINT }),
        } as never) as Promise<Result<ObjectCreationIdResponse>>,
        'POST',
        path,
        unsafeHint(CONNECTOR_HINT),
      );
    },
    associateCredential(connectorId, credentialId, body, opts) {
      checkInt('associateCredential: connectorId', connectorId);
      checkInt('associateCredential: credentialId', credentialId);
      const payload = lowerAccess(body ?? { access_type: 'public' });
      return unwrap(
        inner.PUT('/manage/admin/connector/{connector_id}/credential/{credential_id}', {
          params: { path: { connector_id: connectorId, credential_id: credentialId } },
          body: payload,
          [CONTROL_KEY]: control(opts),
        } as never) as Promise<Result<StatusResponse>>,
        'PUT',
        `/manage/admin/connector/${connectorId}/credential/${credentialId}`,
      );
    },
  };

  const credentials: KisClient['credentials'] = {
    list(opts) {
      const path = '/manage/admin/credential';
      return unwrap(
        inner.GET(path, { [CONTROL_KEY]: control(opts) } as never) as Promise<Result<Credential[]>>,
        'GET',
        path,
      );
    },
    create(body, opts) {
      const path = '/manage/credential';
      return unwrap(
        inner.POST(path, {
          body,
          [CONTROL_KEY]: control(opts, { retryMode: 'unsafe', unsafeHint: CREDENTIAL_HINT }),
        } as never) as Promise<Result<ObjectCreationIdResponse>>,
        'POST',
        path,
        unsafeHint(CREDENTIAL_HINT),
      );
    },
    async updatePrivateKey(credentialId, input, opts) {
      checkInt('updatePrivateKey: credentialId', credentialId);
      const form = (await loadWorkflows()).privateKeyForm(input);
      return unwrap(
        inner.PUT('/manage/admin/credential/private-key/{credential_id}', {
          params: { path: { credential_id: credentialId } },
          body: form,
          bodySerializer: (b: unknown) => b,
          [CONTROL_KEY]: control(opts),
        } as never) as Promise<Result<CredentialBase>>,
        'PUT',
        `/manage/admin/credential/private-key/${credentialId}`,
      );
    },
  };

  const files: KisClient['files'] = {
    async upload(input, opts) {
      const form = (await loadWorkflows()).uploadForm(input);
      const path = '/user/file/upload';
      return unwrap(
        inner.POST(path, {
          body: form,
          bodySerializer: (b: unknown) => b,
          [CONTROL_KEY]: control(opts, { retryMode: 'unsafe', unsafeHint: UPLOAD_HINT }),
        } as never) as Promise<Result<UserFileUploadResponse>>,
        'POST',
        path,
        unsafeHint(UPLOAD_HINT),
      );
    },
    async uploadImage(file, opts) {
      return (await loadWorkflows()).uploadImage(files.upload, file, opts);
    },
  };

  // The ingestion call is the bulk hot path: it goes to the transport directly (same auth,
  // retries, time-outs and error parsing as every other call) without openapi-fetch's per-call
  // header merging and serializer set-up. Its types are still the spec's.
  const ingestUrl = `${baseUrl}/svc-api/ingestion`;
  async function sendIngestion(
    body: IngestionRequest,
    ctl: CallControl,
  ): Promise<Result<IngestionResult>> {
    const response = await transport.exchange(
      new LightRequest(ingestUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        [CONTROL_KEY]: ctl,
      }),
    );
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
    return { data: JSON.parse(text) as IngestionResult, response };
  }

  function ingestRaw(body: IngestionRequest, ctl: CallControl): Promise<IngestionResult> {
    return unwrap(sendIngestion(body, ctl), 'POST', '/svc-api/ingestion');
  }

  const ingestion: KisClient['ingestion'] = {
    ingest(request, opts) {
      return ingestRaw(request, control(opts));
    },
    list(opts) {
      const path = '/svc-api/ingestion';
      return unwrap(
        inner.GET(path, { [CONTROL_KEY]: control(opts) } as never) as Promise<
          Result<IngestedDocumentSummary[]>
        >,
        'GET',
        path,
      );
    },
    async delete(documentId, opts) {
      if (typeof documentId !== 'string' || documentId === '') {
        throw new TypeError('ingestion.delete: documentId must be a non-empty string');
      }
      const data = await unwrap(
        inner.DELETE('/svc-api/ingestion/{document_id}', {
          params: { path: { document_id: documentId } },
          [CONTROL_KEY]: control(opts),
        } as never) as Promise<Result<StatusResponse | null>>,
        'DELETE',
        `/svc-api/ingestion/${encodeURIComponent(documentId)}`,
      );
      return data ?? null;
    },
    listConnectorDocuments(ccPairId, opts) {
      checkInt('listConnectorDocuments: ccPairId', ccPairId);
      return unwrap(
        inner.GET('/svc-api/connector-docs/{cc_pair_id}', {
          params: { path: { cc_pair_id: ccPairId } },
          [CONTROL_KEY]: control(opts),
        } as never) as Promise<Result<IngestedDocumentSummary[]>>,
        'GET',
        `/svc-api/connector-docs/${ccPairId}`,
      );
    },
  };

  const apiWith = (opts: RequestOptions): Client<paths> =>
    createClient<paths>({
      baseUrl,
      fetch: (request: Request) =>
        transport.fetch(Object.assign(request, { [CONTROL_KEY]: { ...opts } as CallControl })),
    });

  const engine: IngestEngine = {
    log,
    timeoutMs,
    ingest: ingestRaw,
    uploadImage: async (file, opts) => (await files.uploadImage(file, opts)).fileId,
  };
  const deps: WorkflowDeps = { connectors, credentials, log, redactor, engine };

  return {
    baseUrl,
    api,
    apiWith,
    connectors,
    credentials,
    files,
    ingestion,
    setupConnector: async (input, opts) =>
      (await loadWorkflows()).setupConnector(deps, input, opts),
    ingestDocument: async (document, opts) =>
      (await loadWorkflows()).ingestDocument(deps, document, opts),
    ingestMany: (source, opts) => lazyIngestRun(loadWorkflows, engine, source, opts),
  };
}

/**
 * The `file_id` of an uploaded file in an upload answer (the only one, or the one named
 * `fileName`). Throws with the server's reason when the file was rejected.
 */
export function getFileId(response: UserFileUploadResponse, fileName?: string): string {
  const files = response?.user_files ?? [];
  const file =
    fileName === undefined
      ? files.length === 1
        ? files[0]
        : undefined
      : files.find((f) => f.name === fileName);
  if (file) return file.file_id;
  const rejected = (response?.rejected_files ?? []).find(
    (r) => fileName === undefined || r.file_name === fileName,
  );
  if (rejected) {
    throw new KisError(
      `The server rejected ${JSON.stringify(rejected.file_name)}: ${rejected.reason}`,
      { body: response },
    );
  }
  throw new KisError(
    fileName === undefined
      ? `Expected exactly one uploaded file in the answer, found ${files.length}; pass a fileName`
      : `No uploaded file named ${JSON.stringify(fileName)} in the answer (files: ${files.map((f) => f.name).join(', ') || 'none'})`,
    { body: response },
  );
}

/**
 * SHA-256 (hex) of the canonical JSON (sorted keys, no whitespace) of an ingestion request body:
 * the content hash a journal records. Loads on first use.
 */
export async function contentHash(requestBody: unknown): Promise<string> {
  return (await import('./internal/workflows.js')).contentHash(requestBody);
}
/**
 * Check an ingestion request body against the spec's `IngestionRequest` schema (the validators
 * compiled from the spec). Resolves with the issues; empty when valid.
 */

export async function checkIngestionRequest(body: unknown): Promise<ClientValidationIssue[]> {
  return (await import('./internal/workflows.js')).checkIngestionRequest(body);
}
