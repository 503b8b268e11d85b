/** Everything `@kis/client` exports besides `createKisClient`, shared by its two entry points. */
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
  FeatureUnavailableError,
  HtmlResponseError,
  InternalServerError,
  KisError,
  type KisErrorInit,
  NotFoundError,
  PayloadTooLargeError,
  type PermissionDenialReason,
  PermissionDeniedError,
  RateLimitError,
  SyncInProgressError,
  UnprocessableEntityError,
  type ValidationIssue,
} from './errors.js';
export { getFileId } from './file-id.js';
export type {
  IngestAttempt,
  IngestInput,
  IngestItem,
  IngestManyOptions,
  IngestProgress,
  IngestResult,
  IngestRun,
  IngestStatus,
  IngestSummary,
  IngestTools,
  RequestGate,
} from './ingest.js';
export { lowerAccess } from './internal/access.js';
export type { BackoffOptions } from './internal/backoff.js';
export { type PreparedIngestion, prepareIngestion } from './internal/bulk/prepare.js';
export { runStopping } from './internal/bulk/refusals.js';
export { isItem as isIngestItem } from './internal/bulk/source.js';
export { RunUploads as ImageUploads } from './internal/bulk/uploads.js';
export { closeValues } from './internal/close-values.js';
export {
  connectorConfigIssues,
  credentialJsonIssues,
  defaultInputType,
  specEnums,
} from './internal/config-check.js';
export { insecureHttpRefusal, isLoopbackHost } from './internal/insecure-http.js';
export { checkIngestionRequest } from './internal/validate.js';
export {
  canonicalJson,
  contentHash,
  type FingerprintMatcher,
  fingerprintMatcher,
  type IngestJournal,
  type JournalEntry,
  type JournalStamp,
  pairFingerprint,
  type Sha256,
  sha256Hex,
  type UploadEntry,
  webSha256,
} from './journal.js';
export type {
  AdminSearchOptions,
  AssociationResult,
  BoostedOptions,
  DocumentListing,
  DocumentSetListOptions,
  ErrorListOptions,
  GroupDocumentSetChange,
  IngestDocumentOptions,
  IngestDocumentResult,
  IngestionOutcome,
  IngestionPairInput,
  KisClient,
  KisClientOptions,
  PageOptions,
  PrivateKeyUpdate,
  RunOptions,
  ServerVersion,
  SetupConnectorInput,
  SetupConnectorResult,
  SyncWaitOptions,
  UserGroupListOptions,
} from './kis-client.js';
export type { Logger, LogLevel } from './logging.js';
export type { ModelSwitchNotice } from './model-switch.js';
export type { PrunePreview } from './prune-preview.js';
export type { RequestOptions, RetryEvent } from './request-options.js';
export type * from './types.js';
export type { UploadFile } from './upload-file.js';
export { verifyPair } from './verify.js';
export {
  type CheckCounts,
  type CheckOutcome,
  type ModelSwitchState,
  VERIFY_CHECKS,
  VERIFY_REASONS,
  type VerifyCheck,
  type VerifyOptions,
  type VerifyProgress,
  type VerifyReason,
  type VerifyResult,
  type VerifyRun,
  type VerifySummary,
} from './verify-types.js';
