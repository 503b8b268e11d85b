/** Wire types of the API, from @kis/types (generated from the spec by openapi-typescript). */
import type { components } from '@kis/types';

type Schemas = components['schemas'];

export type { components, operations, paths } from '@kis/types';
export type AccessType = Schemas['AccessType'];
export type AdminSearchRequest = Schemas['AdminSearchRequest'];
export type AllSearchSettings = Schemas['AllSearchSettings'];
export type BoostDoc = Schemas['BoostDoc'];
export type DocumentSetCreationRequest = Schemas['DocumentSetCreationRequest'];
export type DocumentSetSummary = Schemas['DocumentSetSummary'];
export type DocumentSetUpdateRequest = Schemas['DocumentSetUpdateRequest'];
export type ReindexError = Schemas['ReindexError'];
export type ReindexProgress = Schemas['ReindexProgress'];
export type SearchDoc = Schemas['SearchDoc'];
export type SearchFilters = Schemas['SearchFilters'];
export type SearchSettings = Schemas['SearchSettings'];
export type UserGroup = Schemas['UserGroup'];
export type UserGroupCreate = Schemas['UserGroupCreate'];
export type UserGroupUpdate = Schemas['UserGroupUpdate'];
export type ApiKey = Schemas['ApiKey'];
export type ApiKeyCreateRequest = Schemas['ApiKeyCreateRequest'];
export type BasicExpertInfo = Schemas['BasicExpertInfo'];
export type CcPairFullInfo = Schemas['CcPairFullInfo'];
export type CcPairStatus = Schemas['CcPairStatus'];
export type ChunkInfo = Schemas['ChunkInfo'];
export type Connector = Schemas['Connector'];
export type ConnectorCreateRequest = Schemas['ConnectorCreateRequest'];
export type ConnectorCredentialPairMetadata = Schemas['ConnectorCredentialPairMetadata'];
export type ConnectorCredentialPairRequest = Schemas['ConnectorCredentialPairRequest'];
export type ConnectorStatus = Schemas['ConnectorStatus'];
export type Credential = Schemas['Credential'];
export type CredentialBase = Schemas['CredentialBase'];
export type CredentialDataUpdateRequest = Schemas['CredentialDataUpdateRequest'];
export type DocumentSizeInfo = Schemas['DocumentSizeInfo'];
export type DocumentSource = Schemas['DocumentSource'];
export type IndexAttempt = Schemas['IndexAttempt'];
export type IndexingError = Schemas['IndexingError'];
export type IndexingStatus = Schemas['IndexingStatus'];
export type IndexingStatusRequest = Schemas['IndexingStatusRequest'];
export type IngestedDocumentSummary = Schemas['IngestedDocumentSummary'];
export type IngestionDocument = Schemas['IngestionDocument'];
export type IngestionRequest = Schemas['IngestionRequest'];
export type IngestionResult = Schemas['IngestionResult'];
export type InputType = Schemas['InputType'];
export type ObjectCreationIdResponse = Schemas['ObjectCreationIdResponse'];
export type PermissionsSummary = Schemas['PermissionsSummary'];
export type SourceIndexingStatuses = Schemas['SourceIndexingStatuses'];
export type TaskStatus = Schemas['TaskStatus'];
export type UserInfo = Schemas['UserInfo'];
export type Section = Schemas['Section'];
export type SourceValue = Schemas['SourceValue'];
export type StatusResponse = Schemas['StatusResponse'];
export type UserFile = Schemas['UserFile'];
export type UserFileUploadResponse = Schemas['UserFileUploadResponse'];
export type VersionResponse = Schemas['VersionResponse'];

/**
 * A source value to send: one the spec lists (offered by autocompletion), or one a server newer
 * than the spec added, sent as given. `string & {}` keeps the listed values visible to editors,
 * which a plain `DocumentSource | string` would collapse into `string`.
 */
export type KnownOrNewSource = DocumentSource | (string & {});

/** `T` with its `source` widened to `KnownOrNewSource` (same optionality and nullability). */
type WithNewSource<T extends { source?: unknown }> = Omit<T, 'source'> &
  (undefined extends T['source']
    ? { source?: KnownOrNewSource | Exclude<T['source'], DocumentSource | undefined> }
    : { source: KnownOrNewSource | Exclude<T['source'], DocumentSource> });

type ConfigBySource = Schemas['ConnectorConfigBySource'];
type CredentialJsonBySource = Schemas['CredentialJsonBySource'];
type AnyObject = { [key: string]: unknown };

/**
 * The `connector_specific_config` of source `S`: its schema in the spec (`ConnectorConfigBySource`)
 * for a source the spec lists, any object for one it does not (`docs/connector-configs.md`).
 */
export type ConnectorConfigFor<S> = S extends keyof ConfigBySource
  ? NonNullable<ConfigBySource[S]>
  : AnyObject;
/** The `credential_json` of source `S` (`CredentialJsonBySource`), any object when not listed. */
export type CredentialJsonFor<S> = S extends keyof CredentialJsonBySource
  ? NonNullable<CredentialJsonBySource[S]>
  : AnyObject;

/**
 * What `connectors.create` and `setupConnector` take: the spec's body, any source value, the
 * config typed by the source (a misspelled key of a listed source is a compile error).
 */
export type ConnectorCreateInput<S extends KnownOrNewSource = KnownOrNewSource> = Omit<
  ConnectorCreateRequest,
  'source' | 'connector_specific_config'
> & { source: S; connector_specific_config: ConnectorConfigFor<S> };
/** What `credentials.create` takes: the spec's `CredentialBase`, `credential_json` typed by source. */
export type CredentialCreateInput<S extends KnownOrNewSource = KnownOrNewSource> = Omit<
  CredentialBase,
  'source' | 'credential_json'
> & { source: S; credential_json: CredentialJsonFor<S> };
/** A document to ingest: the spec's `IngestionDocument`, any source value. */
export type IngestionDocumentInput = WithNewSource<IngestionDocument>;
/** What `ingestion.ingest` takes: the spec's `IngestionRequest` around an `IngestionDocumentInput`. */
export type IngestionRequestInput = Omit<IngestionRequest, 'document'> & {
  document: IngestionDocumentInput;
};
