/**
 * @kis/client: typed client of the Knowledge Indexing Service API (browser-safe core).
 * Node-only helpers (the JSONL journal) live in `@kis/client/node`.
 */
export { DocumentIdError, deriveDocumentId, normalizeDocumentId } from '@kis/spec/rules';
export {
  type AssociationResult,
  checkIngestionRequest,
  contentHash,
  createKisClient,
  type IngestDocumentOptions,
  type IngestDocumentResult,
  type KisClient,
  type KisClientOptions,
  type PrivateKeyUpdate,
  type ServerVersion,
  type SetupConnectorInput,
  type SetupConnectorResult,
  type UploadFile,
} from './client.js';
export type {
  AppliedChange,
  ApplyOptions,
  ApplyPlan,
  ApplyResult,
  DesiredConnector,
  DesiredCredential,
  DesiredState,
  FieldChange,
  PlanAction,
  PlannedChange,
  PlannedConnector,
  PlannedCredential,
  PlannedPair,
  PlanOptions,
  SecretRecords,
} from './declarative.js';
export type { DoctorCheck, DoctorOptions, DoctorReport } from './doctor.js';
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  type ClientValidationIssue,
  ConfigValidationError,
  ConflictError,
  ConnectorSetupError,
  type ConnectorSetupProblem,
  DesiredStateError,
  type DesiredStateIssue,
  DocumentValidationError,
  HtmlResponseError,
  InternalServerError,
  KisError,
  type KisErrorInit,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  type ValidationIssue,
} from './errors.js';
export { getFileId } from './file-id.js';
export type {
  IngestInput,
  IngestItem,
  IngestManyOptions,
  IngestProgress,
  IngestResult,
  IngestRun,
  IngestStatus,
  IngestSummary,
  IngestTools,
} from './ingest.js';
export type { BackoffOptions } from './internal/backoff.js';
export type { RequestOptions, RetryEvent } from './internal/transport.js';
export type { IngestJournal, JournalEntry, UploadEntry } from './journal.js';
export type { Logger, LogLevel } from './logging.js';
export type {
  SyncAction,
  SyncItem,
  SyncOptions,
  SyncPlan,
  SyncPlanEntry,
  SyncResult,
  SyncRun,
  SyncSession,
  SyncSummary,
} from './sync.js';
export type * from './types.js';
