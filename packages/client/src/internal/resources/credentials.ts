/** Credential creation: `credential_json` checked against the source's keys, then sent once. */
import type { CredentialBase, CredentialCreateInput, ObjectCreationIdResponse } from '../types.js';
import type { CallContext } from './call.js';
import { assertCredentialJson } from './config-check.js';
import { sentAsGiven } from './new-source.js';
import type { RequestOptions } from './transport.js';

/** Said when a create failed in a way that may have created the credential. */
const CREDENTIAL_HINT =
  'The credential may or may not have been created; list credentials before retrying.';

/** `credentials.create`: not retried once the server may have acted (it is not idempotent). */
export async function createCredential(
  ctx: CallContext,
  body: CredentialCreateInput,
  opts: RequestOptions | undefined,
): Promise<ObjectCreationIdResponse> {
  await assertCredentialJson(body.source, body.credential_json);
  const path = '/manage/credential';
  const ctl = { ...opts, retryMode: 'unsafe' as const, unsafeHint: CREDENTIAL_HINT };
  const pending = ctx.inner.POST(path, {
    body: sentAsGiven<CredentialBase>(body),
    fetch: ctx.via(ctl),
  });
  return ctx.unwrap(pending, 'POST', path, CREDENTIAL_HINT);
}
