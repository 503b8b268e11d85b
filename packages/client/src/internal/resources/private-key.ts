/** `credentials.updatePrivateKey`: the seed's multipart replacement of a credential's key file. */
import type { PrivateKeyUpdate } from '../../kis-client.js';
import type { RequestOptions } from '../../request-options.js';
import type { CredentialBase, paths } from '../../types.js';
import type { CallContext } from '../call.js';
import { asIs, multipartBody, privateKeyForm } from '../forms.js';

const PATH = '/manage/admin/credential/private-key/{credential_id}';
type Form = paths[typeof PATH]['put']['requestBody']['content']['multipart/form-data'];

export function updatePrivateKey(
  ctx: CallContext,
  credentialId: number,
  input: PrivateKeyUpdate,
  opts: RequestOptions | undefined,
): Promise<CredentialBase> {
  const params = { path: { credential_id: credentialId } };
  const body = multipartBody<Form>(privateKeyForm(input));
  return ctx.call(
    (fetch) => ctx.api.PUT(PATH, { params, body, bodySerializer: asIs, fetch }),
    opts,
  );
}
