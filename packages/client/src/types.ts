/** Wire types of the API, from @kis/types (generated from the spec by openapi-typescript). */
import type { components } from '@kis/types';

type Schemas = components['schemas'];

export type { components, operations, paths } from '@kis/types';
export type AccessType = Schemas['AccessType'];
export type BasicExpertInfo = Schemas['BasicExpertInfo'];
export type ConnectorCreateRequest = Schemas['ConnectorCreateRequest'];
export type ConnectorCredentialPairMetadata = Schemas['ConnectorCredentialPairMetadata'];
export type Credential = Schemas['Credential'];
export type CredentialBase = Schemas['CredentialBase'];
export type DocumentSource = Schemas['DocumentSource'];
export type IngestedDocumentSummary = Schemas['IngestedDocumentSummary'];
export type IngestionDocument = Schemas['IngestionDocument'];
export type IngestionRequest = Schemas['IngestionRequest'];
export type IngestionResult = Schemas['IngestionResult'];
export type InputType = Schemas['InputType'];
export type ObjectCreationIdResponse = Schemas['ObjectCreationIdResponse'];
export type Section = Schemas['Section'];
export type StatusResponse = Schemas['StatusResponse'];
export type UserFile = Schemas['UserFile'];
export type UserFileUploadResponse = Schemas['UserFileUploadResponse'];
