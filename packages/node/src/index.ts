/**
 * @kis/node: kis under Node, on `@kis/client`: sources of documents (folders, with text
 * extraction; JSONL files; SQL queries; git repositories), the resumable file journal, `sync` of a pair with a source, and
 * declarative set-up (`plan`/`apply` of what `kis.yaml` holds). Extraction libraries are optional
 * peers: a missing one fails the files that need it, with the package to install.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { UploadFile } from '@kis/client';
import { contentTypeOf } from '@kis/rules';

export { FileCreatedRecords } from './created-records.js';
export { THIS_KEY_ACCOUNT } from './declarative/access.js';
export { apply } from './declarative/apply.js';
export {
  type DeclaredSource,
  type DocumentSourceOptions,
  documentSource,
} from './declarative/documents.js';
export { plan } from './declarative/plan.js';
export type {
  AccessPlan,
  AppliedChange,
  ApplyOptions,
  ApplyPlan,
  ApplyResult,
  CreatedRecords,
  DesiredConnector,
  DesiredCredential,
  DesiredDocumentSet,
  DesiredDocuments,
  DesiredGitDocuments,
  DesiredSqlDocuments,
  DesiredState,
  DesiredUserGroup,
  FieldChange,
  MemberAccessChange,
  PairAccessChange,
  PlanAction,
  PlannedChange,
  PlannedConnector,
  PlannedCredential,
  PlannedDocumentSet,
  PlannedPair,
  PlannedUserGroup,
  PlanOptions,
  PruneRisk,
  ScopeKind,
  SecretRecords,
} from './declarative/types.js';
export { FileJournal, type FileJournalOptions, openJournal } from './journal/index.js';
export { FileSecretRecords } from './secret-records.js';
export {
  type Extracted,
  type ExtractedImage,
  type ExtractedMetadata,
  type ExtractedSection,
  type ExtractedText,
  type Extraction,
  ExtractionError,
  type ExtractOptions,
  extensionsOfKind,
  extractFile,
  kindOf,
  MAX_FILE_BYTES,
  SUPPORTED_EXTENSIONS,
} from './sources/extract.js';
export {
  type FolderSource,
  type FolderSourceOptions,
  folderSource,
  SameNameError,
} from './sources/folder.js';
export { fsReason, oneLine } from './sources/fs-reason.js';
export { GitSourceError } from './sources/git/errors.js';
export type { GitFile } from './sources/git/files.js';
export type { GitCommitState, GitRun } from './sources/git/incremental.js';
export { isGitLocation, parseGitLocation } from './sources/git/location.js';
export { type GitSource, type GitSourceOptions, gitSource } from './sources/git/source.js';
export { type ItemOptions, loadFailure, type SourceItem } from './sources/items.js';
export { describeJsonType, isPlainObject, lineColumn, parseJsonText } from './sources/json-text.js';
export { countJsonlLines, type JsonlSourceOptions, jsonlSource } from './sources/jsonl.js';
export { OPTIONAL_PACKAGES } from './sources/optional-import.js';
export type {
  RunOutcome,
  SourceState,
  SourceStateStore,
  StateValue,
} from './sources/source-state.js';
export { describeSqlConnection, type SqlDialect } from './sources/sql/connection.js';
export { SqlSourceError } from './sources/sql/errors.js';
export type { SqlCursorState, SqlWindow } from './sources/sql/incremental.js';
export type { SqlKey, SqlKeyRange } from './sources/sql/keys.js';
export type { SqlMapping } from './sources/sql/mapping.js';
export {
  type SqlRangeRequest,
  type SqlSource,
  type SqlSourceOptions,
  sqlSource,
} from './sources/sql/source.js';
export { fileKey } from './sources/walk.js';
export { sync } from './sync/index.js';
export type {
  IncrementalSource,
  SyncAction,
  SyncItem,
  SyncJournal,
  SyncOptions,
  SyncPlan,
  SyncPlanEntry,
  SyncResult,
  SyncRun,
  SyncRunOptions,
  SyncSession,
  SyncSummary,
} from './sync/types.js';
export {
  type NodeVerifyOptions,
  type NodeVerifyRun,
  type NodeVerifySummary,
  type RepairOptions,
  type RepairSummary,
  SWITCH_REPUSH_STATE,
  verify,
} from './verify/index.js';
export { type JournalItemsOptions, journalItems } from './verify/journal-items.js';

/**
 * Read a file for `files.upload`/`files.uploadImage`/`credentials.updatePrivateKey`: its bytes,
 * base name and the content type the rule book gives its extension (`contentTypeOf`, else
 * `application/octet-stream`).
 */
export async function readUploadFile(path: string, contentType?: string): Promise<UploadFile> {
  const data = await readFile(path);
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    fileName: basename(path),
    contentType: contentType ?? contentTypeOf(path),
  };
}
