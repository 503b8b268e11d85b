/**
 * Workflows, loaded on first use by the client: connector set-up, single and bulk ingestion, and
 * the validators compiled from the spec. Kept out of the core entry so apps that only make plain
 * calls load less code.
 */
import type {
  IngestDocumentOptions,
  IngestDocumentResult,
  KisClient,
  PrivateKeyUpdate,
  SetupConnectorInput,
  SetupConnectorResult,
  UploadFile,
} from '../client.js';
import { getFileId } from '../client.js';
import { ConnectorSetupError, KisError, type KisErrorInit } from '../errors.js';
import {
  createIngestRun,
  type IngestEngine,
  type IngestInput,
  type IngestManyOptions,
  type IngestRun,
  prepareIngestion,
} from '../ingest.js';
import type { LevelLogger } from '../logging.js';
import type {
  AccessType,
  ConnectorCreateRequest,
  ConnectorCredentialPairMetadata,
  Credential,
  IngestionDocument,
  ObjectCreationIdResponse,
  StatusResponse,
  UserFile,
} from '../types.js';
import type { Redactor } from './redact.js';
import type { CallControl, RequestOptions } from './transport.js';
import { checkIngestionRequest } from './validate.js';

export { contentHash } from '../journal.js';
export { checkIngestionRequest };

export interface WorkflowDeps {
  connectors: KisClient['connectors'];
  credentials: KisClient['credentials'];
  log: LevelLogger;
  redactor: Redactor;
  engine: IngestEngine;
}

function lowerAccess<T extends { access_type?: AccessType | undefined }>(body: T): T {
  const a = body.access_type;
  return typeof a === 'string' && a !== a.toLowerCase()
    ? { ...body, access_type: a.toLowerCase() as AccessType }
    : body;
}

function statusOf(err: unknown): KisErrorInit {
  return KisError.isInstance(err)
    ? { status: err.status, requestId: err.requestId, code: err.code }
    : {};
}

const message = (err: unknown) => String((err as Error)?.message ?? err);

async function listCredentials(
  deps: WorkflowDeps,
  opts: RequestOptions | undefined,
): Promise<Credential[]> {
  try {
    return await deps.credentials.list(opts);
  } catch (err) {
    throw new ConnectorSetupError(
      `setupConnector: listing credentials failed (no connector was created): ${message(err)}`,
      {
        stage: 'credential',
        problem: { kind: 'request-failed', reason: message(err) },
        cause: err,
        ...statusOf(err),
      },
    );
  }
}

/**
 * The credential to associate, found before anything is created: `'auto'` picks by source; an
 * explicit id other than 0 is checked against the listing (it exists, and serves the source), so
 * a typo leaves no connector half-created. Credential 0, the default empty one, is taken as given.
 */
async function resolveCredential(
  deps: WorkflowDeps,
  connector: ConnectorCreateRequest,
  credential: 'auto' | number,
  opts: RequestOptions | undefined,
): Promise<number> {
  const source = connector.source;
  if (credential !== 'auto') {
    if (typeof credential !== 'number' || !Number.isInteger(credential) || credential < 0) {
      throw new TypeError(
        `setupConnector: credential must be 'auto' or an integer ≥ 0 (got ${JSON.stringify(credential)})`,
      );
    }
    if (credential === 0) return 0;
    const all = await listCredentials(deps, opts);
    const found = all.find((c) => c.id === credential);
    if (found === undefined) {
      const availableIds = all.map((c) => c.id);
      throw new ConnectorSetupError(
        `setupConnector: credential ${credential} does not exist (credential ids: ${availableIds.join(', ') || 'none'}); no connector was created.`,
        {
          stage: 'credential',
          problem: { kind: 'unknown-credential', credentialId: credential, availableIds },
          credentialId: credential,
        },
      );
    }
    if (found.source !== source) {
      throw new ConnectorSetupError(
        `setupConnector: credential ${credential} has source "${found.source}", not the connector's "${source}"; no connector was created.`,
        {
          stage: 'credential',
          problem: {
            kind: 'credential-source-mismatch',
            credentialId: credential,
            credentialSource: found.source,
            source,
          },
          credentialId: credential,
        },
      );
    }
    return credential;
  }
  if (source === 'file' || source === 'web') return 0;
  const all = await listCredentials(deps, opts);
  const matches = all.filter((c) => c.source === source);
  if (matches.length === 1) return (matches[0] as Credential).id;
  if (matches.length > 1) {
    const credentialIds = matches.map((c) => c.id);
    throw new ConnectorSetupError(
      `setupConnector: ${matches.length} credentials have source "${source}" (ids ${credentialIds.join(', ')}); pass credential: <id> (no connector was created).`,
      { stage: 'credential', problem: { kind: 'ambiguous-credential', source, credentialIds } },
    );
  }
  const availableSources = [...new Set(all.map((c) => c.source))].sort();
  throw new ConnectorSetupError(
    `setupConnector: no credential has source "${source}" (credentials exist for: ${availableSources.join(', ') || 'none'}); create one or pass credential: <id> (no connector was created).`,
    { stage: 'credential', problem: { kind: 'no-credential', source, availableSources } },
  );
}

/** Create the connector, resolve its credential and associate them (see `KisClient`). */
export async function setupConnector(
  deps: WorkflowDeps,
  input: SetupConnectorInput,
  opts?: RequestOptions,
): Promise<SetupConnectorResult> {
  if (
    typeof input !== 'object' ||
    input === null ||
    typeof input.connector !== 'object' ||
    input.connector === null
  ) {
    throw new TypeError('setupConnector: input must be { connector, credential? }');
  }
  const { log } = deps;
  const connector = lowerAccess(input.connector);
  const credentialId = await resolveCredential(deps, connector, input.credential ?? 'auto', opts);
  let created: ObjectCreationIdResponse;
  try {
    created = await deps.connectors.create(connector, opts);
  } catch (err) {
    const text = `setupConnector: creating connector "${connector.name}" failed: ${message(err)}`;
    log.log('error', text);
    throw new ConnectorSetupError(text, {
      stage: 'create',
      problem: { kind: 'request-failed', reason: message(err) },
      credentialId,
      cause: err,
      ...statusOf(err),
    });
  }
  const connectorId = created.id;
  const body: ConnectorCredentialPairMetadata = lowerAccess({
    name: connector.name,
    access_type: connector.access_type,
    ...(connector.groups ? { groups: connector.groups } : {}),
    ...input.association,
  });
  let retried = 0;
  let answer: StatusResponse;
  const unfinished = `Connector ${connectorId} exists but is not associated with credential ${credentialId}; finish with connectors.associateCredential(${connectorId}, ${credentialId}) or delete it in the admin interface.`;
  try {
    const control: CallControl = { ...opts, onRetry: () => void retried++ };
    answer = await deps.connectors.associateCredential(connectorId, credentialId, body, control);
  } catch (err) {
    log.log('error', `setupConnector: association failed. ${unfinished}`);
    throw new ConnectorSetupError(
      `setupConnector: associating the credential failed: ${message(err)} ${unfinished}`,
      {
        stage: 'associate',
        problem: { kind: 'request-failed', reason: message(err) },
        connectorId,
        credentialId,
        cause: err,
        ...statusOf(err),
      },
    );
  }
  if (answer.success === false) {
    if (retried > 0) {
      // our first attempt most likely succeeded and its answer was lost
      log.log(
        'warn',
        `setupConnector: association answered success:false after a retry (${answer.message ?? 'no message'}); treating it as done, pair id unknown.`,
      );
      return { connectorId, credentialId, ccPairId: null };
    }
    log.log('error', `setupConnector: the server refused the association. ${unfinished}`);
    throw new ConnectorSetupError(
      `setupConnector: the association answered success:false (${answer.message ?? 'no message'}). ${unfinished}`,
      {
        stage: 'associate',
        problem: { kind: 'refused', reason: answer.message ?? 'no message' },
        connectorId,
        credentialId,
        body: deps.redactor.value(answer),
      },
    );
  }
  return {
    connectorId,
    credentialId,
    ccPairId: typeof answer.data === 'number' ? answer.data : null,
  };
}

/** Validate, fix the id, send one document (see `KisClient.ingestDocument`). */
export async function ingestDocument(
  deps: WorkflowDeps,
  document: IngestionDocument,
  opts: IngestDocumentOptions = {},
): Promise<IngestDocumentResult> {
  const { ccPairId, validate, ...request } = opts;
  if (
    ccPairId !== undefined &&
    ccPairId !== null &&
    !(Number.isInteger(ccPairId) && ccPairId >= 0)
  ) {
    throw new TypeError(
      `ingestDocument: ccPairId must be an integer ≥ 0 (got ${String(ccPairId)})`,
    );
  }
  const { body, documentId } = prepareIngestion(document, ccPairId, validate !== false);
  const answer = await deps.engine.ingest(body, { ...request });
  return {
    documentId: answer.document_id || documentId,
    alreadyExisted: answer.already_existed,
  };
}

export function startIngestRun(
  engine: IngestEngine,
  source: Iterable<IngestInput> | AsyncIterable<IngestInput>,
  options: IngestManyOptions | undefined,
): IngestRun {
  return createIngestRun(engine, source, options);
}

function toBlob(file: UploadFile, defaultName: string, what: string): { blob: Blob; name: string } {
  if (typeof Blob !== 'undefined' && file instanceof Blob) {
    const name = (file as { name?: unknown }).name;
    return { blob: file, name: typeof name === 'string' && name ? name : defaultName };
  }
  if (typeof file === 'object' && file !== null && 'data' in file && 'fileName' in file) {
    if (typeof file.fileName !== 'string' || file.fileName === '') {
      throw new TypeError(`${what}.fileName must be a non-empty string`);
    }
    const data = file.data;
    const type = file.contentType ?? 'application/octet-stream';
    const blob = data instanceof Blob ? data : new Blob([data as BlobPart], { type });
    return { blob, name: file.fileName };
  }
  throw new TypeError(
    `${what} must be a Blob/File or { data: Blob | Uint8Array | ArrayBuffer | string, fileName: string }`,
  );
}

/** `files.uploadImage`: upload one file, return its `file_id` (or the server's rejection). */
export async function uploadImage(
  upload: KisClient['files']['upload'],
  file: UploadFile,
  opts: RequestOptions | undefined,
): Promise<{ fileId: string; file: UserFile }> {
  const { name } = toBlob(file, 'file-1', 'files.uploadImage: file');
  const answer = await upload(file, opts);
  const fileId = getFileId(answer, name);
  return { fileId, file: answer.user_files.find((f) => f.file_id === fileId) as UserFile };
}

/** The multipart body of `files.upload`: one `files` part per file. */
export function uploadForm(input: UploadFile | readonly UploadFile[]): FormData {
  const list = (Array.isArray(input) ? input : [input]) as readonly UploadFile[];
  if (list.length === 0) throw new TypeError('files.upload: give at least one file');
  const form = new FormData();
  list.forEach((f, i) => {
    const { blob, name } = toBlob(f, `file-${i + 1}`, `files.upload: files[${i}]`);
    form.append('files', blob, name);
  });
  return form;
}

/** The multipart body of `credentials.updatePrivateKey` (all five parts the seed requires). */
export function privateKeyForm(input: PrivateKeyUpdate): FormData {
  if (typeof input !== 'object' || input === null) {
    throw new TypeError(
      'updatePrivateKey: input must be { name, credentialJson, file, fieldKey, typeDefinitionKey }',
    );
  }
  for (const key of ['name', 'fieldKey', 'typeDefinitionKey'] as const) {
    if (typeof input[key] !== 'string' || input[key] === '') {
      throw new TypeError(`updatePrivateKey: ${key} must be a non-empty string`);
    }
  }
  let credentialJson: string;
  const cj = input.credentialJson;
  if (typeof cj === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(cj);
    } catch (err) {
      throw new TypeError(`updatePrivateKey: credentialJson is not valid JSON (${message(err)})`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new TypeError('updatePrivateKey: credentialJson must be a JSON object');
    }
    credentialJson = cj;
  } else if (typeof cj === 'object' && cj !== null && !Array.isArray(cj)) {
    credentialJson = JSON.stringify(cj);
  } else {
    throw new TypeError(
      'updatePrivateKey: credentialJson must be an object or a JSON object string',
    );
  }
  const { blob, name } = toBlob(input.file, 'private-key.pfx', 'updatePrivateKey: file');
  const form = new FormData();
  form.append('name', input.name);
  form.append('credential_json', credentialJson);
  form.append('uploaded_file', blob, name);
  form.append('field_key', input.fieldKey);
  form.append('type_definition_key', input.typeDefinitionKey);
  return form;
}
