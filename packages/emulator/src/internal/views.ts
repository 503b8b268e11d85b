// Stored records as the API shows them, typed by the spec's schemas. Secrets never leave the
// store: every string inside a credential's JSON is masked in every answer.
import type { Schemas } from './op-types.js';
import type { ProfileBehaviour } from './profile.js';
import type { CredentialRecord, DocumentListItem, JsonObject, UserFileRecord } from './store.js';

const MASK = '********';

/** Every string inside a credential's JSON replaced by a mask. */
export function maskCredentialJson(value: unknown): unknown {
  if (typeof value === 'string') return MASK;
  if (Array.isArray(value)) return value.map(maskCredentialJson);
  if (typeof value === 'object' && value !== null) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskCredentialJson(v);
    return out;
  }
  return value;
}

function maskedJson(c: CredentialRecord): JsonObject {
  return maskCredentialJson(c.credential_json) as JsonObject;
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
