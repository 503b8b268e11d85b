/**
 * The typed client's surface: `KisClient`, its options and the inputs and results of its
 * methods. Types only; `createKisClient` (client.ts) builds one.
 */
import type { Client } from 'openapi-fetch';
import type { DoctorOptions, DoctorReport } from './doctor.js';
import type { IngestInput, IngestManyOptions, IngestRun } from './ingest.js';
import type { BackoffOptions } from './internal/backoff.js';
import type { IngestionOutcome } from './internal/ingestion-outcome.js';
import type { Logger, LogLevel } from './logging.js';
import type { ModelSwitchNotice } from './model-switch.js';
import type { ErrorListOptions, PageOptions, RunOptions } from './pair-options.js';
import type { PrunePreview } from './prune-preview.js';
import type { RequestOptions } from './request-options.js';
import type {
  AdminSearchOptions,
  BoostedOptions,
  DocumentSetListOptions,
  GroupDocumentSetChange,
  SyncWaitOptions,
  UserGroupListOptions,
} from './search-options.js';
import type {
  AccessType,
  AllSearchSettings,
  ApiKey,
  ApiKeyCreateRequest,
  BoostDoc,
  CcPairFullInfo,
  ChunkInfo,
  Connector,
  ConnectorCreateInput,
  ConnectorCredentialPairMetadata,
  ConnectorStatus,
  Credential,
  CredentialBase,
  CredentialCreateInput,
  CredentialDataUpdateRequest,
  DocumentSetCreationRequest,
  DocumentSetSummary,
  DocumentSetUpdateRequest,
  DocumentSizeInfo,
  IndexAttempt,
  IndexingError,
  IndexingStatusRequest,
  IngestedDocumentSummary,
  IngestionDocumentInput,
  IngestionRequestInput,
  IngestionResult,
  KnownOrNewSource,
  ObjectCreationIdResponse,
  PermissionsSummary,
  paths,
  ReindexError,
  ReindexProgress,
  SearchDoc,
  SearchSettings,
  SourceIndexingStatuses,
  StatusResponse,
  UserFile,
  UserFileUploadResponse,
  UserGroup,
  UserGroupCreate,
  UserGroupUpdate,
  UserInfo,
} from './types.js';
import type { UploadFile } from './upload-file.js';

export type {
  AdminSearchOptions,
  BoostedOptions,
  DocumentSetListOptions,
  ErrorListOptions,
  GroupDocumentSetChange,
  IngestionOutcome,
  PageOptions,
  RunOptions,
  SyncWaitOptions,
  UploadFile,
  UserGroupListOptions,
};

export interface KisClientOptions {
  /** API root including the `/api` prefix, e.g. `https://kis.example.com/api`. */
  baseUrl: string;
  /** API key sent as `Authorization: Bearer <key>`. Never logged or stored on errors. */
  apiKey: string;
  /**
   * Custom fetch (tests, proxies, instrumented fetch). Default: under Node, a keep-alive undici
   * `Agent` with its redirect interceptor (README, "Transports"); elsewhere `globalThis.fetch`.
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Under Node, what sends the calls made one at a time; ingestion runs (`ingestMany`,
   * `ingestDocument`) always send on undici. `'undici'` (default), or `'node:http'`, which loads
   * and compiles nothing more: for a process that makes a few calls and exits (README,
   * "Transports"). Ignored with `fetch` and outside Node.
   */
  callsOn?: 'undici' | 'node:http' | undefined;
  /**
   * Send the API key over plain `http://` to a host other than this machine. Refused by default:
   * anyone on the network path could read the key. Loopback addresses are always allowed.
   */
  allowInsecureHttp?: boolean | undefined;
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

/** A pair to push into (`setupIngestionPair`). */
export interface IngestionPairInput {
  /** The connector's name, and the pair's. */
  name: string;
  /** The pair's access type (default `public`). */
  access_type?: AccessType | undefined;
  /** User groups of a private pair. */
  groups?: number[] | undefined;
  /** Overrides for the association body. */
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
  /**
   * True when the index held a document of that id before the call: the answer's
   * `already_existed` read as the server's release means it (`ingestionOutcome`). Never proof
   * that the document is indexed.
   */
  alreadyExisted: boolean;
}

/** A pair's listing, parsed one document at a time (`kis.ingestion.connectorDocuments`). */
export interface DocumentListing extends Iterable<IngestedDocumentSummary> {
  /** How many documents it lists. */
  readonly count: number;
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
     * `refresh_freq` becomes null). `prune_freq` is always sent: left out, the connector's is read
     * and kept; null (never) is sent as 0, which servers keep as never, where they would store
     * 604800 (one week) for a null and so start pruning the pair on their own.
     */
    update<S extends KnownOrNewSource>(
      connectorId: number,
      body: ConnectorCreateInput<S>,
      options?: RequestOptions,
    ): Promise<Connector>;
    /**
     * DELETE /manage/admin/connector/{connectorId}: removes the connector and its pairs at once,
     * leaving their documents in the index (`pairs.requestDeletion` cleans the index).
     */
    delete(connectorId: number, options?: RequestOptions): Promise<StatusResponse>;
    /**
     * POST /manage/admin/connector/run-once: the connector's pairs (or those of `credentialIds`)
     * index now, re-reading the whole source with `fromBeginning`. `data` is the number of
     * attempts triggered: a pair that already has one running or waiting is skipped (0).
     */
    runOnce(connectorId: number, options?: RunOptions): Promise<StatusResponse>;
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
    /** PUT …/status PAUSED: no attempt runs (one running is canceled) until `resume`. */
    pause(ccPairId: number, options?: RequestOptions): Promise<void>;
    /** PUT …/status ACTIVE. */
    resume(ccPairId: number, options?: RequestOptions): Promise<void>;
    /**
     * Runs this pair's connector once for this pair's credential (`connectors.runOnce`); `data`
     * is 0 when an attempt was already running or waiting.
     */
    run(
      ccPairId: number,
      options?: RequestOptions & { fromBeginning?: boolean | undefined },
    ): Promise<StatusResponse>;
    /**
     * Starts the pair's deletion (`requestDeletion` with its connector and credential): its status
     * becomes `DELETING`; `waitUntilGone` follows it to the end.
     */
    delete(ccPairId: number, options?: RequestOptions): Promise<void>;
    /** GET …/index-attempts: every index attempt, newest first, read a page at a time. */
    attempts(ccPairId: number, options?: PageOptions): AsyncIterable<IndexAttempt>;
    /** GET …/errors: the pair's indexing errors, newest first, read a page at a time. */
    errors(ccPairId: number, options?: ErrorListOptions): AsyncIterable<IndexingError>;
    /**
     * POST …/prune: the server removes documents no longer in the source (in the background).
     * Every document the connector does not list goes, pushed ones included: a file connector
     * with no files lists none (`prunePreview` tells what a prune would remove).
     */
    prune(ccPairId: number, options?: RequestOptions): Promise<StatusResponse>;
    /**
     * What a prune of the pair would remove, changing nothing: the pair's documents against what
     * its connector lists (a file connector: its `file_locations`), and when the server prunes
     * it on its own.
     */
    prunePreview(ccPairId: number, options?: RequestOptions): Promise<PrunePreview>;
    /** GET …/last_pruned: when a prune of the pair last finished, or null. */
    lastPruned(ccPairId: number, options?: RequestOptions): Promise<string | null>;
    /** POST /manage/admin/connector/indexing-status: pairs by source, with their indexing state. */
    indexingStatus(
      filters?: IndexingStatusRequest,
      options?: RequestOptions,
    ): Promise<SourceIndexingStatuses[]>;
  };
  /**
   * Whether a document is in the index as this key sees it (deployed servers): visibility comes
   * from the pairs holding it (public, the credential's creator, their groups), with no admin
   * bypass, so `NotFoundError` means "not visible to this key" as much as "not indexed".
   */
  readonly documents: {
    /** GET /document/document-size-info: its chunks and tokens (`NotFoundError` until indexed). */
    sizeInfo(documentId: string, options?: RequestOptions): Promise<DocumentSizeInfo>;
    /** GET /document/chunk-info: one chunk's text and tokens. */
    chunkInfo(documentId: string, chunkId: number, options?: RequestOptions): Promise<ChunkInfo>;
    /**
     * POST /manage/admin/doc-hidden: hides the document from ordinary search (admin keyword
     * search still finds it), or shows it again. A re-embedding push resets it.
     */
    setHidden(
      documentId: string,
      hidden: boolean,
      options?: RequestOptions,
    ): Promise<StatusResponse>;
    /** POST /manage/admin/doc-boosts: the document's boost (0 by default). */
    setBoost(documentId: string, boost: number, options?: RequestOptions): Promise<StatusResponse>;
    /** GET /manage/admin/doc-boosts: documents ranked by boost (highest first by default). */
    boosted(options?: BoostedOptions): Promise<BoostDoc[]>;
  };
  /** What a key can find (deployed servers). */
  readonly search: {
    /**
     * POST /admin/search: keyword search of the current index as this key sees it, one entry per
     * document (best chunk), at most 50 chunks' worth, hidden documents included. `""` is a random
     * sample of 10 chunks without hidden documents: it cannot prove that a document exists.
     */
    admin(query: string, options?: AdminSearchOptions): Promise<SearchDoc[]>;
  };
  /** The settings of the index searches read, and of an embedding-model switch in progress. */
  readonly searchSettings: {
    /** GET …/get-secondary-search-settings: the switch in progress, or null. */
    secondary(options?: RequestOptions): Promise<SearchSettings | null>;
    /**
     * The switch in progress (null when none) and what it means for pushed documents on this
     * server: copied into the new index (port flow, since v4.4.0), or there only when pushed again
     * during the switch (legacy flow), by its settings and the server's release.
     */
    switchInProgress(options?: RequestOptions): Promise<ModelSwitchNotice | null>;
    /** GET …/get-all-search-settings: the current settings and the switch's. */
    all(options?: RequestOptions): Promise<AllSearchSettings>;
    /** GET …/reindex-progress: the switch's ports (all 0 without one; since v4.5.0). */
    reindexProgress(options?: RequestOptions): Promise<ReindexProgress>;
    /** GET …/reindex-errors: the ports that failed or are paused (since v4.5.0). */
    reindexErrors(options?: RequestOptions): Promise<ReindexError[]>;
  };
  /**
   * Document sets (deployed servers): searches narrow to them by name. Each change reaches the
   * documents through the server's sync; another change meanwhile is `SyncInProgressError`.
   * A group manager (main line) or curator (release 4.6.1) out of its groups is
   * `PermissionDeniedError` with `reason: 'out-of-scope'`.
   */
  readonly documentSets: {
    /** GET /manage/document-set (not paged): those the key may use, or edit with `editable`. */
    list(options?: DocumentSetListOptions): Promise<DocumentSetSummary[]>;
    /** POST /manage/admin/document-set: the new id. Not retried once it may exist. */
    create(body: DocumentSetCreationRequest, options?: RequestOptions): Promise<number>;
    /** PATCH /manage/admin/document-set: a full replace. */
    update(body: DocumentSetUpdateRequest, options?: RequestOptions): Promise<void>;
    /** DELETE /manage/admin/document-set/{id}: listed until the sync removes it (`waitUntilGone`). */
    delete(documentSetId: number, options?: RequestOptions): Promise<void>;
    /** Polls the listing until the set is up to date; resolves with it. */
    waitUntilSynced(documentSetId: number, options?: SyncWaitOptions): Promise<DocumentSetSummary>;
    /** Polls the listing until the set is gone. */
    waitUntilGone(documentSetId: number, options?: SyncWaitOptions): Promise<void>;
  };
  /**
   * User groups (enterprise edition): a pair's groups see its documents. Without the enterprise
   * edition, or below the Business plan, every call is `FeatureUnavailableError`. Changes of
   * pairs and names reach the documents through the server's sync (`SyncInProgressError`
   * meanwhile); members count at once.
   */
  readonly userGroups: {
    /** GET /manage/admin/user-group (not paged); the seeded groups with `includeDefault`. */
    list(options?: UserGroupListOptions): Promise<UserGroup[]>;
    /** POST /manage/admin/user-group. Not retried once it may exist. */
    create(body: UserGroupCreate, options?: RequestOptions): Promise<UserGroup>;
    /** PATCH /manage/admin/user-group/{id}: a full replace of members and pairs. */
    update(
      userGroupId: number,
      body: UserGroupUpdate,
      options?: RequestOptions,
    ): Promise<UserGroup>;
    /** POST …/{id}/add-users. */
    addUsers(
      userGroupId: number,
      userIds: readonly string[],
      options?: RequestOptions,
    ): Promise<UserGroup>;
    /** PATCH /manage/admin/user-group/rename. */
    rename(userGroupId: number, name: string, options?: RequestOptions): Promise<UserGroup>;
    /**
     * Shares document sets with the group, or stops: PATCH …/{id}/document-sets on the main line;
     * release 4.6.1 has none, so there each set's `groups` is replaced (one set update each).
     */
    shareDocumentSets(
      userGroupId: number,
      change: GroupDocumentSetChange,
      options?: RequestOptions,
    ): Promise<void>;
    /** PUT …/{id}/manager (main line), else POST …/{id}/set-curator (release 4.6.1). */
    setManager(
      userGroupId: number,
      userId: string,
      isManager: boolean,
      options?: RequestOptions,
    ): Promise<void>;
    /** DELETE /manage/admin/user-group/{id}: listed until the sync removes it (`waitUntilGone`). */
    delete(userGroupId: number, options?: RequestOptions): Promise<void>;
    /** Polls the listing until the group is up to date; resolves with it. */
    waitUntilSynced(userGroupId: number, options?: SyncWaitOptions): Promise<UserGroup>;
    /** Polls the listing until the group is gone. */
    waitUntilGone(userGroupId: number, options?: SyncWaitOptions): Promise<void>;
  };
  /** Who the API key is. */
  readonly identity: {
    /** GET /me: a role (release 4.6.1), or an account type and effective permissions (main line). */
    me(options?: RequestOptions): Promise<UserInfo>;
    /** GET /me/permissions, in the main line's shape (release 4.6.1's bare list is wrapped). */
    permissions(options?: RequestOptions): Promise<PermissionsSummary>;
  };
  readonly apiKeys: {
    /**
     * POST /admin/api-key: `{ name, role }` on release 4.6.1, `{ name, group_ids }` on the main
     * line. The new key is in `api_key` of the answer only. Not retried once it may exist.
     */
    create(body: ApiKeyCreateRequest, options?: RequestOptions): Promise<ApiKey>;
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
    /**
     * PATCH /manage/credential/{credentialId}: replaces the name and the whole `credential_json`
     * (keys left out are removed).
     */
    replace(
      credentialId: number,
      body: CredentialBase,
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
    /**
     * GET /svc-api/connector-docs/{ccPairId}, read one document at a time: servers answer the
     * whole listing at once, so its bytes are kept and each document is parsed as the loop
     * reaches it (for pairs of many documents; `listConnectorDocuments` parses them all).
     */
    connectorDocuments(ccPairId: number, options?: RequestOptions): Promise<DocumentListing>;
  };
  /** GET /version: the server's release, or null when it has no such route (seed servers). */
  version(options?: RequestOptions): Promise<ServerVersion | null>;
  /**
   * What an ingestion answer's `already_existed` says, read as the server's release means it
   * (inverted from v0.20.0 until v3.3.0; the release is asked once per client): `created` when
   * the index had no document of that id, else `updated`. Never proof that the document is
   * indexed: a failed index write answers as an existing one (`documents.sizeInfo` tells).
   */
  ingestionOutcome(answer: Pick<IngestionResult, 'already_existed'>): Promise<IngestionOutcome>;
  /**
   * Checks the server, the base URL and the key with requests that change nothing: it answers,
   * the base URL includes /api, the key is accepted and can manage connectors, who the key is
   * (`GET /me`: a role, or a service account's groups and permissions) and which groups of calls
   * it may use, which route variants and release the server has, and (with `ccPairId`) that the
   * pair exists.
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
  /**
   * A pair to push documents into that the server never indexes nor prunes on its own: a
   * connector of source `ingestion_api` with no refresh and no prune, and the default empty
   * credential (`setupConnector` underneath). Prefer it to a `file` connector with no files,
   * whose prune deletes every document pushed into its pair.
   */
  setupIngestionPair(
    input: IngestionPairInput,
    options?: RequestOptions,
  ): Promise<SetupConnectorResult>;
  /** Validate, fix the id, send one document. */
  ingestDocument(
    document: IngestionDocumentInput,
    options?: IngestDocumentOptions,
  ): Promise<IngestDocumentResult>;
  /** Bulk ingestion with bounded concurrency, retries, throttling, progress and resume. */
  ingestMany(
    source: Iterable<IngestInput> | AsyncIterable<IngestInput>,
    options?: IngestManyOptions,
  ): IngestRun;
}
