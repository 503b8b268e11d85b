/**
 * `@kis/rules`: the rules of the service that a schema cannot say, written once beside the
 * OpenAPI document (packages/spec) and read by the client, the emulator, the CLI and the apps
 * (docs/deployed-servers.md explains each). Browser-safe: no Node built-ins.
 */

export { profileAcceptsAccessType } from './access-types.js';
export {
  DEFAULT_INDEX_BACKEND,
  documentTags,
  HIGHLIGHT,
  INDEX_BACKENDS,
  type IndexBackend,
  includesHidden,
  inRange,
  isSampleQuery,
  KEYWORD_HITS,
  RANDOM_SAMPLE_CHUNKS,
  type SearchFilterInput,
  type TimeRange,
  UNKNOWN_SEMANTIC_IDENTIFIER,
  updatedRange,
  utcTime,
} from './admin-search.js';
export { type Answer, DEFAULT_PROFILE, PROFILES, type Profile } from './answer.js';
export type {
  ConnectorField,
  ConnectorFieldGroup,
  ConnectorFieldsTable,
  SourceFields,
} from './connector-fields.js';
export { contentHashInput, type HashedDocument } from './content-hash.js';
export {
  callerReaders,
  documentReaders,
  groupReader,
  maySee,
  type OwningPair,
  PUBLIC_READER,
  pairGrants,
  userReader,
} from './document-access.js';
export {
  DERIVED_ID_PREFIX,
  DocumentIdError,
  deriveDocumentId,
  givenDocumentId,
  normalizeDocumentId,
  rawDerivedId,
  storedDocumentId,
} from './document-id.js';
export {
  DOCUMENT_SET_ANSWERS,
  DOCUMENT_SET_TEXTS,
  defaultGroupShareText,
  duplicateSetNameText,
  pairNotOwnedByGroupsText,
  pairsNotOwnedByGroups,
  type SetFacts,
  type SetReader,
  type SetRequest,
  setDeleteRefusal,
  setListed,
  setNotFoundText,
  setPermissions,
  setWriteRefusal,
  unknownSetPairText,
} from './document-sets.js';
export {
  BUSINESS_TIER_OPERATIONS,
  DEFAULT_EDITION,
  EDITIONS,
  type Edition,
  ENTERPRISE_OPERATIONS,
  editionRefusal,
  enterpriseFeatureOf,
  groupsGrantAccess,
  isPlanRequired,
  requiredTierOf,
} from './editions.js';
export {
  contentTypeOf,
  extensionOf,
  extensionsFor,
  FILE_KINDS,
  type FileKind,
  type FileKindInfo,
  fileKindOf,
} from './file-kinds.js';
export { DATE_TIME_PATTERN, isDateTime, toRfc3339 } from './formats.js';
export {
  INDEXING_STATUSES,
  type IndexingStatus,
  isAttemptRunning,
  isAttemptSuccessful,
  NEWEST_ATTEMPT_FIRST,
  nextRepeatedErrorState,
  REPEATED_ERROR_ATTEMPTS,
  RUNNING_ATTEMPT_STATUSES,
  runTrigger,
  SUCCESSFUL_ATTEMPT_STATUSES,
} from './index-attempts.js';
export {
  alreadyExistedAnswer,
  type IngestionDecision,
  ingestionDecision,
  pushUpdatedAt,
  REEMBED_RESETS,
  type StoredVersion,
  wasNewToIndex,
} from './ingestion-outcomes.js';
export {
  CURATOR_OR_ADMIN_ROLES,
  DEFAULT_GROUP_GRANTS,
  DEFAULT_KEY_ROLE,
  type DefaultGroup,
  groupKeyPermissions,
  isLimitedKey,
  KEY_ACCOUNT_TYPE,
  keyAccountEmail,
  releaseKeyPermissions,
  roleKeyGroup,
  roleKeyPermissions,
  UNGROUPED_KEY_PERMISSIONS,
  USER_ROLES,
  type UserRole,
} from './key-models.js';
export {
  type Denial,
  denialOf,
  isPairNotFound,
  LIFECYCLE_ANSWERS,
  LIFECYCLE_TEXTS,
  PAIR_OPERATIONS,
  type PairOperation,
  seedPairNotFoundText,
} from './lifecycle-answers.js';
export {
  inPortScope,
  legacyIndexesSource,
  legacyInstantDropsDocuments,
  NO_REINDEX_PROGRESS,
  SEARCH_SETTINGS_STATUSES,
  SWITCHOVER_TYPES,
  type SwitchFlow,
  type SwitchoverType,
  swapWaitsForPorts,
  switchFlow,
  switchKeepsPushed,
} from './model-switch.js';
export {
  accessFor,
  type MainGate,
  mainLineDenial,
  OPERATION_ACCESS,
  type OperationAccess,
  permissionFor,
  type ReleaseGate,
  releaseDenial,
  servedOn,
} from './operation-access.js';
export { type NamedPair, pairNames } from './pair-names.js';
export {
  DELETION_PHASES,
  INDEXABLE_PAIR_STATUSES,
  INVALID_AFTER_VALIDATION_FAILURES,
  isIndexable,
  NEW_PAIR_STATUS,
  nextPairStatus,
  PAIR_STATUSES,
  type PairEvent,
  type PairStatus,
  SETTABLE_PAIR_STATUSES,
} from './pair-status.js';
export {
  effectivePermissions,
  grants,
  IMPLIED_PERMISSIONS,
  type KnownPermission,
  PERMISSIONS,
} from './permissions.js';
export {
  ANSWERS,
  isNotAuthenticated,
  isRouteNotFound,
  isUnknownCredential,
  NOT_AUTHENTICATED_DETAIL,
  parseValidationMessage,
  type ValidationItem,
  validationMessage,
} from './profiles.js';
export {
  type AutoPruneFacts,
  autoPruneDueAt,
  fileConnectorDocumentId,
  fileConnectorListing,
  MIN_PRUNE_FREQ,
  PRUNE_FREQ_NEVER,
  PRUNE_FREQ_ON_UPDATE,
  type PruneListing,
  PUSH_ONLY_CONNECTOR,
  PUSH_ONLY_SOURCE,
  prunedIds,
  pruneListing,
  prunePatchValue,
  prunesOnItsOwn,
} from './pruning.js';
export { pyRepr, pyStr } from './python.js';
export { ROLES, type Role, roleAllows } from './roles.js';
export { ROUTE_VARIANTS, type RouteGroup } from './routes.js';
export { type ScopeRefusal, scopeRefusalOf } from './scope-refusals.js';
export {
  type GroupMembersChange,
  groupUpdateBody,
  type ListedGroup,
  type ListedSet,
  type SetChange,
  setBeingDeleted,
  setUpdateBody,
} from './scope-updates.js';
export {
  type Actor,
  type Membership,
  managedGroupIds,
  managesAll,
  mayEditPair,
  type ScopedPair,
} from './scoped-actors.js';
export {
  isMaskedValue,
  MASK_EXEMPT_KEYS,
  MASK_MIN_LENGTH,
  maskCredentialJson,
  maskSecret,
  NUMBER_MASK,
  SHORT_SECRET_MASK,
} from './secrets.js';
export {
  DEPLOYED_LINES,
  type DeployedLine,
  SERVER_KINDS,
  type ServerKind,
  serverKindOf,
} from './server-kinds.js';
export {
  compareReleases,
  KIND_RELEASES,
  parseReleaseNumber,
  RELEASE_FACTS,
  type ReleaseFact,
  type ReleaseNumber,
  type ReleaseRange,
  releaseHas,
  releaseRouteOf,
} from './server-versions.js';
export {
  DEFAULT_CC_PAIR_ID,
  DEFAULT_CREDENTIAL_ID,
  DEFAULT_CREDENTIAL_SOURCE,
  DEFAULT_DOCUMENT_SOURCE,
  ingestionPairId,
  needsCredential,
  profileAcceptsSource,
  SOURCE_RELEASES,
  SOURCES_WITHOUT_CREDENTIAL,
} from './sources.js';
export {
  duplicateGroupNameText,
  GROUP_SYNC_TRIGGERS,
  type GroupChange,
  type GroupFacts,
  groupChangeRefusal,
  groupListed,
  groupNotFoundText,
  groupWriteRefusal,
  pairsNotFoundText,
  USER_GROUP_ANSWERS,
  USER_GROUP_TEXTS,
  usersNotFoundText,
} from './user-groups.js';
