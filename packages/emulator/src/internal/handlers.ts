// The semantics of each operation of the spec, by operationId. Requests reach these handlers
// authenticated and validated against the spec; handlers apply the rules of the seed and of the
// deployed servers (compat-notes) on top.
import { setTimeout as sleep } from 'node:timers/promises';
import { toRfc3339 } from '@kis/spec/formats';
import { HttpError, ValidationFailure } from './errors.js';
import { storedDocumentId } from './ids.js';
import {
  type CredentialRecord,
  DEFAULT_CC_PAIR_ID,
  DEFAULT_CREDENTIAL_ID,
  type DocumentWrite,
  type JsonObject,
  SOURCES_WITHOUT_CREDENTIAL,
  type Store,
  type UploadWrite,
  type UserFileRecord,
} from './store.js';
import { MAX_JSON_DEPTH, tooDeepPath, type ValidationIssue } from './validation.js';

export interface OpInput {
  /** Path and query parameters, parsed and validated by their schemas. */
  params: Record<string, unknown>;
  /** The parsed JSON body (validated), or undefined when there is none. */
  body: unknown;
  /** The multipart form (validated), for multipart operations. */
  form: FormData | undefined;
  /** Raw (still percent-encoded) path parameters, as they appeared in the URL. */
  rawParams: Record<string, string>;
}

export interface OpResult {
  status: number;
  body: unknown;
}

export type OpHandler = (input: OpInput) => OpResult | Promise<OpResult>;

export interface HandlerContext {
  store: Store;
  /** Added service time per ingestion request, in milliseconds. */
  latencyMs: number;
  now: () => Date;
}

const MASK = '********';

/** Every string inside a credential's JSON replaced by a mask: secrets never leave the store. */
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

/** A credential list item / `Credential` (secrets masked). */
export function credentialView(c: CredentialRecord): JsonObject {
  return {
    id: c.id,
    source: c.source,
    credential_json: maskCredentialJson(c.credential_json),
    admin_public: c.admin_public,
    name: c.name,
    curator_public: c.curator_public,
    groups: c.groups,
    user_id: null,
    user_email: null,
    time_created: c.time_created,
    time_updated: c.time_updated,
  };
}

/** A `CredentialBase` (secrets masked). */
function credentialBaseView(c: CredentialRecord): JsonObject {
  return {
    credential_json: maskCredentialJson(c.credential_json),
    admin_public: c.admin_public,
    source: c.source,
    name: c.name,
    curator_public: c.curator_public,
    groups: c.groups,
  };
}

function userFileView(f: UserFileRecord, tempId: string | null): JsonObject {
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

/** `public`, `private`, `sync` whatever the spelling (`PUBLIC` in the seed's example). */
export function canonicalAccessType(value: unknown): string | null {
  return typeof value === 'string' ? value.toLowerCase() : null;
}

function asObject(value: unknown): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : {};
}

function optionalInt(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

function optionalString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A validated date-time as RFC 3339 (a value without an offset is UTC), or null. */
function optionalTimestamp(value: unknown): string | null {
  return typeof value === 'string' ? toRfc3339(value) : null;
}

function intList(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v)) : [];
}

/** A PKCS#12 file is a DER SEQUENCE starting with `INTEGER 3` (the PFX version). */
export function looksLikePkcs12(data: Uint8Array): boolean {
  if (data.length < 5 || data[0] !== 0x30) return false;
  let offset = 1;
  const first = data[offset++]!;
  let length = first;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count < 1 || count > 4 || offset + count > data.length) return false;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + data[offset++]!;
  }
  if (offset + length > data.length) return false;
  return data[offset] === 0x02 && data[offset + 1] === 0x01 && data[offset + 2] === 0x03;
}

/** The type_definition_key values deployed servers accept, with their file check. */
const PRIVATE_KEY_TYPES: Record<string, { check: (d: Uint8Array) => boolean; what: string }> = {
  sharepoint_pfx_file: { check: looksLikePkcs12, what: 'a PKCS#12 (.pfx) file' },
};

function firstLink(sections: unknown[]): string | null {
  for (const s of sections) {
    const link = asObject(s).link;
    if (typeof link === 'string' && link !== '') return link;
  }
  return null;
}

/** Fields of IngestionDocument that are stored in their own columns (the rest go to `extra`). */
const DOCUMENT_COLUMNS = new Set([
  'id',
  'semantic_identifier',
  'title',
  'sections',
  'source',
  'metadata',
  'doc_updated_at',
  'chunk_count',
  'primary_owners',
  'secondary_owners',
  'from_ingestion_api',
]);

/**
 * Turns a validated IngestionRequest into the document to store, applying deployed servers'
 * rules: derived/encoded id, default source, `from_ingestion_api`, default `doc_updated_at`, and
 * the check that every `image_file_id` names an uploaded file.
 */
export function prepareIngestion(
  store: Store,
  body: unknown,
  now: Date,
  fromIngestionApi: boolean,
): { doc: DocumentWrite; pairId: number } {
  const request = asObject(body);
  const document = asObject(request.document);
  const requested = request.cc_pair_id;
  let pairId = DEFAULT_CC_PAIR_ID;
  if (typeof requested === 'number' && requested !== 0) {
    if (store.getPair(requested) === undefined) {
      throw new HttpError(
        404,
        `Connector-credential pair with id ${requested} not found (cc_pair_id); create one with PUT /manage/admin/connector/{connector_id}/credential/{credential_id}, or omit cc_pair_id to use the default pair ${DEFAULT_CC_PAIR_ID}`,
      );
    }
    pairId = requested;
  }
  const sections = Array.isArray(document.sections) ? document.sections : [];
  const issues: ValidationIssue[] = [];
  sections.forEach((section, i) => {
    const fileId = asObject(section).image_file_id;
    if (typeof fileId === 'string' && !store.hasFile(fileId)) {
      issues.push({
        loc: ['body', 'document', 'sections', i, 'image_file_id'],
        msg: `Value error, no uploaded file has file_id '${fileId}'; upload the image first with POST /user/file/upload and use the file_id it returns`,
        type: 'value_error',
        input: fileId,
      });
    }
  });
  if (issues.length > 0) throw new ValidationFailure(issues);
  const semantic = String(document.semantic_identifier);
  const extra: JsonObject = {};
  for (const [k, v] of Object.entries(document)) if (!DOCUMENT_COLUMNS.has(k)) extra[k] = v;
  const doc: DocumentWrite = {
    id: storedDocumentId(optionalString(document.id), semantic),
    semantic_identifier: semantic,
    title: optionalString(document.title),
    source: optionalString(document.source) ?? 'ingestion_api',
    link: firstLink(sections),
    sections,
    metadata: asObject(document.metadata),
    primary_owners: Array.isArray(document.primary_owners) ? document.primary_owners : null,
    secondary_owners: Array.isArray(document.secondary_owners) ? document.secondary_owners : null,
    doc_updated_at: optionalTimestamp(document.doc_updated_at) ?? now.toISOString(),
    chunk_count: optionalInt(document.chunk_count),
    extra,
    from_ingestion_api: fromIngestionApi,
  };
  return { doc, pairId };
}

export function createHandlers(ctx: HandlerContext): Record<string, OpHandler> {
  const { store } = ctx;

  const getCredentialOr404 = (id: number): CredentialRecord => {
    const credential = store.getCredential(id);
    if (credential === undefined) {
      throw new HttpError(404, `Credential ${id} does not exist (credential_id)`);
    }
    return credential;
  };

  return {
    createConnector({ body }) {
      const b = asObject(body);
      const connector = store.createConnector({
        name: String(b.name),
        source: String(b.source),
        input_type: optionalString(b.input_type),
        access_type: canonicalAccessType(b.access_type),
        connector_specific_config: asObject(b.connector_specific_config),
        refresh_freq: optionalInt(b.refresh_freq),
        prune_freq: optionalInt(b.prune_freq),
        indexing_start: optionalTimestamp(b.indexing_start),
        groups: intList(b.groups),
      });
      return { status: 200, body: { id: connector.id, credential: null } };
    },

    listCredentials() {
      return { status: 200, body: store.listCredentials().map(credentialView) };
    },

    createCredential({ body }) {
      const b = asObject(body);
      const credential = store.createCredential({
        name: optionalString(b.name),
        source: String(b.source),
        credential_json: asObject(b.credential_json),
        admin_public: b.admin_public === true,
        curator_public: b.curator_public === true,
        groups: intList(b.groups),
      });
      return { status: 200, body: { id: credential.id, credential: credentialView(credential) } };
    },

    async updateCredentialPrivateKey({ params, form }) {
      const credentialId = params.credential_id as number;
      const text = (name: string): string => {
        const value = form?.get(name);
        return typeof value === 'string' ? value : '';
      };
      let credentialJson: unknown;
      try {
        credentialJson = JSON.parse(text('credential_json'));
      } catch (error) {
        throw new HttpError(
          400,
          `Invalid JSON in credential_json: ${(error as Error).message}; expected a JSON object written as a string`,
        );
      }
      if (tooDeepPath(credentialJson) !== undefined) {
        throw new HttpError(
          400,
          `Invalid credential_json: JSON nested more than ${MAX_JSON_DEPTH} levels deep`,
        );
      }
      if (
        typeof credentialJson !== 'object' ||
        credentialJson === null ||
        Array.isArray(credentialJson)
      ) {
        throw new HttpError(
          400,
          'Invalid credential_json: expected a JSON object written as a string, e.g. {"sp_client_id": "..."}',
        );
      }
      const typeKey = text('type_definition_key');
      const kind = PRIVATE_KEY_TYPES[typeKey];
      if (kind === undefined) {
        throw new HttpError(
          400,
          `Invalid type_definition_key '${typeKey}': expected one of ${Object.keys(PRIVATE_KEY_TYPES).join(', ')}`,
        );
      }
      const file = form?.get('uploaded_file');
      if (!(file instanceof File)) {
        throw new HttpError(400, 'uploaded_file must be a file part');
      }
      const data = new Uint8Array(await file.arrayBuffer());
      if (!kind.check(data)) {
        throw new HttpError(
          400,
          `uploaded_file '${file.name}' is not ${kind.what}, as type_definition_key '${typeKey}' requires`,
        );
      }
      const fieldKey = text('field_key');
      const stored = {
        ...(credentialJson as JsonObject),
        [fieldKey]: `(private key file ${file.name}, ${data.byteLength} bytes, stored by the emulator)`,
      };
      getCredentialOr404(credentialId);
      const updated = store.updateCredentialPrivateKey(credentialId, {
        name: text('name'),
        credential_json: stored,
        field_key: fieldKey,
        type_definition_key: typeKey,
        file_name: file.name,
        content_type: file.type || 'application/octet-stream',
        data,
      });
      if (updated === undefined) {
        throw new HttpError(404, `Credential ${credentialId} does not exist (credential_id)`);
      }
      return { status: 200, body: credentialBaseView(updated) };
    },

    associateCredentialWithConnector({ params, body }) {
      const connectorId = params.connector_id as number;
      const credentialId = params.credential_id as number;
      const connector = store.getConnector(connectorId);
      if (connector === undefined) {
        throw new HttpError(404, `Connector ${connectorId} does not exist (connector_id)`);
      }
      const credential = getCredentialOr404(credentialId);
      if (credentialId === DEFAULT_CREDENTIAL_ID) {
        if (!SOURCES_WITHOUT_CREDENTIAL.has(connector.source)) {
          throw new HttpError(
            400,
            `Credential 0 is the default empty credential, usable only by sources that need none (${[...SOURCES_WITHOUT_CREDENTIAL].join(', ')}); connector ${connectorId} has source '${connector.source}': associate a credential of source '${connector.source}'`,
          );
        }
      } else if (credential.source !== connector.source) {
        throw new HttpError(
          400,
          `Credential ${credentialId} has source '${credential.source}' but connector ${connectorId} has source '${connector.source}': the sources must match`,
        );
      }
      const existing = store.findPair(connectorId, credentialId);
      if (existing !== undefined) {
        return {
          status: 200,
          body: {
            success: false,
            message: `Connector ${connectorId} already has credential ${credentialId} (connector/credential pair ${existing.id})`,
            data: null,
          },
        };
      }
      const b = body === undefined ? {} : asObject(body);
      const pair = store.createPair({
        connector_id: connectorId,
        credential_id: credentialId,
        name: optionalString(b.name) ?? connector.name,
        access_type: canonicalAccessType(b.access_type) ?? connector.access_type ?? 'public',
        groups: intList(b.groups),
        auto_sync_options:
          typeof b.auto_sync_options === 'object' && b.auto_sync_options !== null
            ? asObject(b.auto_sync_options)
            : null,
      });
      return {
        status: 200,
        body: {
          success: true,
          message: `Credential ${credentialId} associated with connector ${connectorId}: connector/credential pair ${pair.id}`,
          data: pair.id,
        },
      };
    },

    async ingestDocument({ body }) {
      const { doc, pairId } = prepareIngestion(store, body, ctx.now(), true);
      if (ctx.latencyMs > 0) await sleep(ctx.latencyMs);
      const result = await store.upsertDocumentGrouped(doc, pairId);
      return {
        status: 200,
        body: { document_id: doc.id, already_existed: result.already_existed },
      };
    },

    listIngestedDocuments() {
      return { status: 200, body: store.listIngestedDocuments() };
    },

    deleteIngestedDocument({ params, rawParams }) {
      const decoded = String(params.document_id);
      let id = decoded;
      let doc = store.getDocument(decoded);
      const raw = rawParams.document_id;
      if (doc === undefined && raw !== undefined && raw !== decoded) {
        // A stored id is percent-encoded; accept it given as-is (not encoded once more).
        doc = store.getDocument(raw);
        id = raw;
      }
      if (doc === undefined) {
        throw new HttpError(404, `Document '${decoded}' not found (document_id)`);
      }
      if (!doc.from_ingestion_api) {
        throw new HttpError(
          400,
          `Document '${id}' was not created through the ingestion API and cannot be deleted with this call`,
        );
      }
      store.deleteDocument(id);
      return {
        status: 200,
        body: { success: true, message: `Document ${id} deleted`, data: null },
      };
    },

    listConnectorDocuments({ params }) {
      const pairId = params.cc_pair_id as number;
      if (store.getPair(pairId) === undefined) {
        throw new HttpError(
          404,
          `Connector-credential pair with id ${pairId} not found (cc_pair_id)`,
        );
      }
      return { status: 200, body: store.listPairDocuments(pairId) };
    },

    async uploadUserFiles({ form }) {
      const parts = form?.getAll('files') ?? [];
      const projectRaw = form?.get('project_id');
      const projectId =
        typeof projectRaw === 'string' && /^\d+$/.test(projectRaw) ? Number(projectRaw) : null;
      const tempIds = parseTempIdMap(form?.get('temp_id_map'));
      const accepted: { write: UploadWrite; tempId: string | null }[] = [];
      const rejected: { file_name: string; reason: string }[] = [];
      for (const part of parts) {
        if (!(part instanceof File)) continue;
        const name = part.name || 'upload';
        if (part.size === 0) {
          rejected.push({ file_name: name, reason: 'The file is empty' });
          continue;
        }
        accepted.push({
          write: {
            name,
            file_type: part.type || 'application/octet-stream',
            data: new Uint8Array(await part.arrayBuffer()),
            project_id: projectId,
          },
          tempId: tempIds.get(name) ?? null,
        });
      }
      const records = store.addUserFiles(accepted.map((a) => a.write));
      return {
        status: 200,
        body: {
          user_files: records.map((r, i) => userFileView(r, accepted[i]?.tempId ?? null)),
          rejected_files: rejected,
        },
      };
    },
  };
}

/**
 * `temp_id_map` relates client-side temporary ids and file names; either direction is accepted
 * (`{ "tmp-1": "a.png" }` or `{ "a.png": "tmp-1" }`).
 */
function parseTempIdMap(value: FormDataEntryValue | null | undefined): Map<string, string> {
  const byName = new Map<string, string>();
  if (typeof value !== 'string' || value === '') return byName;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new HttpError(400, 'Invalid JSON in temp_id_map: expected a JSON object of strings');
  }
  for (const [key, value] of Object.entries(asObject(parsed))) {
    if (typeof value !== 'string') continue;
    if (!byName.has(value)) byName.set(value, key);
    if (!byName.has(key)) byName.set(key, value);
  }
  return byName;
}
