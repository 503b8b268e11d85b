// Stored records as the API shows them, typed by the spec's schemas. Secrets never leave the
// store: every credential in every answer carries its JSON masked by the rule book's
// `maskCredentialJson`, as deployed servers mask it.
import { maskCredentialJson } from '@kis/rules';
import type { Schemas } from './op-types.js';
import { pairAccessType } from './pair-views.js';
import type { ProfileBehaviour } from './profile.js';
import type { ConnectorRecord } from './store/connectors.js';
import type { CredentialRecord } from './store/credentials.js';
import type { DocumentListItem } from './store/documents.js';
import type { UserFileRecord } from './store/files.js';
import type { JsonObject } from './store/json-columns.js';
import type { PairRecord } from './store/pairs.js';

function maskedJson(c: CredentialRecord): JsonObject {
  return maskCredentialJson(c.credential_json);
}

/** A credential list item (`Credential`), secrets masked. */
export function credentialView(
  c: CredentialRecord,
  behaviour: ProfileBehaviour,
): Schemas['Credential'] {
  return {
    id: c.id,
    source: c.source,
    credential_json: maskedJson(c),
    admin_public: c.admin_public,
    name: c.name,
    curator_public: c.curator_public,
    groups: behaviour.credentialGroups ? c.groups : [],
    user_id: null,
    user_email: null,
    time_created: c.time_created,
    time_updated: c.time_updated,
  };
}

/** A `CredentialBase`, secrets masked (the private-key update's answer). */
export function credentialBaseView(c: CredentialRecord): Schemas['CredentialBase'] {
  return {
    credential_json: maskedJson(c),
    admin_public: c.admin_public,
    // stored sources were validated as DocumentSource values when written
    source: c.source as Schemas['DocumentSource'],
    name: c.name,
    curator_public: c.curator_public,
    groups: c.groups,
  };
}

/** An uploaded file as the seed's upload answers it (integer record ids). */
export function seedUserFileView(f: UserFileRecord, tempId: string | null): Schemas['UserFile'] {
  return {
    id: f.id,
    name: f.name,
    file_id: f.file_id,
    status: f.status,
    file_type: f.file_type,
    created_at: f.created_at,
    temp_id: tempId,
    project_id: f.project_id,
  };
}

/** What deployed servers' chat code calls a file's kind, from its media type. */
function chatFileType(mediaType: string): string {
  if (mediaType.startsWith('image/')) return 'image';
  if (mediaType === 'text/csv') return 'csv';
  if (mediaType === 'text/plain') return 'plain_text';
  return 'document';
}

/** An uploaded file as deployed servers' project upload answers it (uuid record ids). */
export function projectUserFileView(
  f: UserFileRecord,
  tempId: string | null,
): Schemas['UserFile'] & Record<string, unknown> {
  return {
    id: f.uid,
    temp_id: tempId,
    name: f.name,
    project_id: f.project_id,
    user_id: null,
    file_id: f.file_id,
    created_at: f.created_at,
    status: f.status,
    last_accessed_at: f.created_at,
    file_type: f.file_type,
    chat_file_type: chatFileType(f.file_type),
    token_count: null,
    chunk_count: null,
  };
}

/** A document listing item; a document without a link lists the profile's `missingLink`. */
export function documentListView(
  item: DocumentListItem,
  behaviour: ProfileBehaviour,
): Schemas['IngestedDocumentSummary'] {
  return { ...item, link: item.link ?? behaviour.missingLink };
}

/** A connector (`Connector`): no access type or groups, those belong to its pairs. */
export function connectorView(c: ConnectorRecord, credentialIds: number[]): Schemas['Connector'] {
  return {
    id: c.id,
    name: c.name,
    source: c.source,
    input_type: c.input_type ?? 'load_state',
    connector_specific_config: c.connector_specific_config,
    refresh_freq: c.refresh_freq,
    prune_freq: c.prune_freq,
    indexing_start: c.indexing_start,
    credential_ids: credentialIds,
    time_created: c.time_created,
    time_updated: c.time_updated,
  };
}

/**
 * One item of the list of pairs (`ConnectorStatus`), the credential's secrets masked; `groups`
 * are the pair's group links the server shows.
 */
export function connectorStatusView(
  p: PairRecord,
  connector: Schemas['Connector'],
  credential: Schemas['Credential'],
  groups: number[],
): Schemas['ConnectorStatus'] {
  return {
    cc_pair_id: p.id,
    name: p.name,
    connector,
    credential,
    access_type: pairAccessType(p),
    groups,
  };
}
