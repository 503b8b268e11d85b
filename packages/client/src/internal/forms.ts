/**
 * Multipart bodies: the upload (`files` parts) and the private-key replacement (the seed's five
 * parts). Loaded with the calls that send them.
 */
import type { PrivateKeyUpdate } from '../kis-client.js';
import type { UploadFile } from '../upload-file.js';

const message = (err: unknown) => String((err as Error)?.message ?? err);

/**
 * A FormData as the body of a multipart operation. openapi-typescript types `format: binary`
 * parts as strings, so a form carrying Blobs has no spelling in the spec's types: this is the one
 * place that states "this form is that operation's body".
 */
export function multipartBody<Body>(form: FormData): Body {
  return form as unknown as Body;
}

/** openapi-fetch's `bodySerializer` for a FormData body: sent as it is (fetch encodes it). */
export const asIs = <T>(body: T): T => body;

/** A Blob and a file name from any `UploadFile`. */
export function toBlob(
  file: UploadFile,
  defaultName: string,
  what: string,
): { blob: Blob; name: string } {
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

/** `credentialJson` as the JSON object text the form carries. */
function credentialJsonText(cj: PrivateKeyUpdate['credentialJson']): string {
  if (typeof cj === 'object' && cj !== null && !Array.isArray(cj)) return JSON.stringify(cj);
  if (typeof cj !== 'string') {
    throw new TypeError(
      'updatePrivateKey: credentialJson must be an object or a JSON object string',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(cj);
  } catch (err) {
    throw new TypeError(`updatePrivateKey: credentialJson is not valid JSON (${message(err)})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new TypeError('updatePrivateKey: credentialJson must be a JSON object');
  }
  return cj;
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
  const credentialJson = credentialJsonText(input.credentialJson);
  const { blob, name } = toBlob(input.file, 'private-key.pfx', 'updatePrivateKey: file');
  const form = new FormData();
  form.append('name', input.name);
  form.append('credential_json', credentialJson);
  form.append('uploaded_file', blob, name);
  form.append('field_key', input.fieldKey);
  form.append('type_definition_key', input.typeDefinitionKey);
  return form;
}
