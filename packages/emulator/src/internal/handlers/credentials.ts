// Credentials: listing, creation and the private-key file update.
import { ANSWERS, DEFAULT_CREDENTIAL_ID } from '@kis/spec/rules';
import { AnswerError, HttpError } from '../errors.js';
import type { Handlers } from '../op-types.js';
import type { JsonObject } from '../store.js';
import { MAX_JSON_DEPTH, tooDeepPath } from '../validation.js';
import { credentialBaseView, credentialView } from '../views.js';
import type { HandlerContext } from './context.js';

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

/** The `type_definition_key` values servers accept, with the file each needs. */
const PRIVATE_KEY_TYPES: Record<string, { extension: string; check: (d: Uint8Array) => boolean }> =
  {
    sharepoint_pfx_file: { extension: '.pfx', check: looksLikePkcs12 },
  };

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function credentialHandlers(
  ctx: HandlerContext,
): Pick<Handlers, 'listCredentials' | 'createCredential' | 'updateCredentialPrivateKey'> {
  const { store, profile, behaviour } = ctx;
  const deployed = profile === 'deployed';
  return {
    listCredentials() {
      return {
        status: 200,
        body: store.listCredentials().map((c) => credentialView(c, behaviour)),
      };
    },

    createCredential({ body }) {
      if (
        behaviour.refuseCertificateCredentials &&
        body.credential_json.authentication_method === 'certificate'
      ) {
        throw new HttpError(
          400,
          'Certificate authentication is not supported for this endpoint. Please use the /credential/private-key endpoint instead.',
        );
      }
      const credential = store.createCredential({
        name: body.name ?? null,
        source: body.source,
        credential_json: body.credential_json,
        admin_public: body.admin_public,
        curator_public: body.curator_public ?? false,
        groups: body.groups ?? [],
      });
      return {
        status: 200,
        body: { id: credential.id, credential: credentialView(credential, behaviour) },
      };
    },

    // The order of the checks is deployed servers': the JSON text, the kind of file, the file,
    // then the credential.
    async updateCredentialPrivateKey({ params, fields, form }) {
      const credentialId = params.credential_id;
      let credentialJson: unknown;
      try {
        credentialJson = JSON.parse(fields.credential_json);
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
      // Deployed servers fail later, when they add the key to a JSON value that is no object.
      if (!isJsonObject(credentialJson) && !deployed) {
        throw new HttpError(
          400,
          'Invalid credential_json: expected a JSON object written as a string, e.g. {"sp_client_id": "..."}',
        );
      }
      const typeKey = fields.type_definition_key;
      const kind = Object.hasOwn(PRIVATE_KEY_TYPES, typeKey)
        ? PRIVATE_KEY_TYPES[typeKey]
        : undefined;
      if (kind === undefined) {
        throw new AnswerError(
          ANSWERS.privateKeyTypeUnknown(profile, typeKey, Object.keys(PRIVATE_KEY_TYPES)),
        );
      }
      const file = form?.get('uploaded_file');
      if (!(file instanceof File)) throw new HttpError(400, 'uploaded_file must be a file part');
      if (deployed && !file.name.toLowerCase().endsWith(kind.extension)) {
        throw new HttpError(400, 'Invalid file type. Only .pfx files are supported.');
      }
      const data = new Uint8Array(await file.arrayBuffer());
      if (!kind.check(data)) {
        throw new HttpError(
          400,
          deployed
            ? 'Invalid file content. The uploaded file does not appear to be a valid PKCS#12 (.pfx) file.'
            : `uploaded_file '${file.name}' is not a PKCS#12 (.pfx) file, as type_definition_key '${typeKey}' requires`,
        );
      }
      if (!isJsonObject(credentialJson)) {
        throw new AnswerError(ANSWERS.internalError(profile));
      }
      // Credential 0 belongs to no user: deployed servers answer as for an unknown credential.
      if (credentialId === DEFAULT_CREDENTIAL_ID && !deployed) {
        throw new HttpError(
          400,
          `Credential ${DEFAULT_CREDENTIAL_ID} is the default empty credential shared by sources that need none; it has no private key. Create a credential of the connector's source and update that one`,
        );
      }
      if (
        credentialId === DEFAULT_CREDENTIAL_ID ||
        store.getCredential(credentialId) === undefined
      ) {
        throw new AnswerError(ANSWERS.privateKeyUnknownCredential(profile, credentialId));
      }
      const fieldKey = fields.field_key;
      const updated = store.updateCredentialPrivateKey(credentialId, {
        name: fields.name,
        credential_json: {
          ...credentialJson,
          [fieldKey]: `(private key file ${file.name}, ${data.byteLength} bytes, stored by the emulator)`,
        },
        field_key: fieldKey,
        type_definition_key: typeKey,
        file_name: file.name,
        content_type: file.type || 'application/octet-stream',
        data,
      });
      if (updated === undefined) {
        throw new AnswerError(ANSWERS.privateKeyUnknownCredential(profile, credentialId));
      }
      return { status: 200, body: credentialBaseView(updated) };
    },
  };
}
