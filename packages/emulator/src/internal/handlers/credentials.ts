// Credentials: listing, creation, reading, updating (merge or replace of the JSON), deletion and
// the private-key file update. Every answer shows the JSON masked (views.ts).
import { ANSWERS, DEFAULT_CREDENTIAL_ID } from '@kis/rules';
import { AnswerError, HttpError } from '../errors.js';
import type { Handlers } from '../op-types.js';
import type { JsonObject } from '../store/json-columns.js';
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
): Pick<
  Handlers,
  | 'listCredentials'
  | 'createCredential'
  | 'updateCredentialPrivateKey'
  | 'getCredential'
  | 'updateCredential'
  | 'replaceCredentialJson'
  | 'deleteCredential'
> {
  const { store, profile, behaviour } = ctx;
  const deployed = profile === 'deployed';
  /** A credential of the store, or deployed servers' 401 for an id they do not know. */
  const existing = (id: number) => {
    const credential = store.credentials.get(id);
    if (credential === undefined) throw new AnswerError(ANSWERS.credentialUnknown(id));
    return credential;
  };
  return {
    getCredential({ params }) {
      return { status: 200, body: credentialView(existing(params.credential_id), behaviour) };
    },

    // Sets the name and merges the keys sent into the stored JSON: no key can be removed here.
    updateCredential({ params, body }) {
      const id = params.credential_id;
      const current = existing(id);
      const merged = { ...current.credential_json, ...body.credential_json };
      const updated = store.credentials.updateData(id, body.name, merged);
      if (updated === undefined) throw new AnswerError(ANSWERS.credentialUnknown(id));
      return { status: 200, body: credentialView(updated, behaviour) };
    },

    // Replaces the JSON whole; the body's other fields (a CredentialBase) are not used.
    replaceCredentialJson({ params, body }) {
      const id = params.credential_id;
      const current = existing(id);
      const updated = store.credentials.updateData(id, current.name, body.credential_json);
      if (updated === undefined) throw new AnswerError(ANSWERS.credentialUnknown(id));
      return { status: 200, body: credentialView(updated, behaviour) };
    },

    // 400 with a `message` for an unknown credential and for one a pair still uses, so a second
    // delete is an error (deployed servers raise a ValueError in both cases).
    deleteCredential({ params }) {
      const id = params.credential_id;
      if (store.credentials.get(id) === undefined) {
        throw new AnswerError({
          status: 400,
          body: {
            message: `Credential by provided id ${id} does not exist or does not belong to user`,
          },
        });
      }
      const pairs = store.pairs.countOfCredential(id);
      if (pairs > 0) {
        throw new AnswerError({
          status: 400,
          body: {
            message: `Cannot delete credential as it is still associated with ${pairs} connector(s) and 0 document(s). `,
          },
        });
      }
      store.credentials.delete(id);
      return {
        status: 200,
        body: { success: true, message: 'Credential deleted successfully', data: id },
      };
    },

    listCredentials() {
      return {
        status: 200,
        body: store.credentials.list().map((c) => credentialView(c, behaviour)),
      };
    },

    // The creator is the credential's owner: its pairs' documents name it as a reader.
    createCredential({ body, caller }) {
      if (
        behaviour.refuseCertificateCredentials &&
        body.credential_json.authentication_method === 'certificate'
      ) {
        throw new HttpError(
          400,
          'Certificate authentication is not supported for this endpoint. Please use the /credential/private-key endpoint instead.',
        );
      }
      const credential = store.credentials.create({
        name: body.name ?? null,
        source: body.source,
        credential_json: body.credential_json,
        admin_public: body.admin_public,
        curator_public: body.curator_public ?? false,
        groups: body.groups ?? [],
        creator_id: caller?.identity.userId ?? null,
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
        store.credentials.get(credentialId) === undefined
      ) {
        throw new AnswerError(ANSWERS.privateKeyUnknownCredential(profile, credentialId));
      }
      const fieldKey = fields.field_key;
      const updated = store.credentials.updatePrivateKey(credentialId, {
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
