/**
 * `kis.credentials`: creation (its `credential_json` checked against the source's keys, then sent
 * once), listing, reading, updating, replacing, deleting, and the seed's private-key upload.
 */
import type { KisClient } from '../../kis-client.js';
import type { RequestOptions } from '../../request-options.js';
import type {
  Credential,
  CredentialBase,
  CredentialCreateInput,
  CredentialDataUpdateRequest,
  ObjectCreationIdResponse,
  StatusResponse,
} from '../../types.js';
import { checkInt } from '../arguments.js';
import type { CallContext } from '../call.js';
import { assertCredentialJson } from '../config-check.js';
import { sentAsGiven } from '../new-source.js';
import { updatePrivateKey } from './private-key.js';

/** Said when a create failed in a way that may have created the credential. */
const CREDENTIAL_HINT =
  'The credential may or may not have been created; list credentials before retrying.';

/** `credentials.create`: not retried once the server may have acted (it is not idempotent). */
async function createCredential(
  ctx: CallContext,
  body: CredentialCreateInput,
  opts: RequestOptions | undefined,
): Promise<ObjectCreationIdResponse> {
  await assertCredentialJson(body.source, body.credential_json);
  const path = '/manage/credential';
  const ctl = { ...opts, retryMode: 'unsafe' as const, unsafeHint: CREDENTIAL_HINT };
  const sent = sentAsGiven<CredentialBase>(body);
  return ctx.call((fetch) => ctx.api.POST(path, { body: sent, fetch }), ctl, CREDENTIAL_HINT);
}

const idParams = (credentialId: number) => ({
  path: { credential_id: checkInt('credentialId', credentialId) },
});

function getCredential(
  ctx: CallContext,
  credentialId: number,
  opts?: RequestOptions,
): Promise<Credential> {
  return ctx.call(
    (fetch) =>
      ctx.api.GET('/manage/credential/{credential_id}', {
        params: idParams(credentialId),
        fetch,
      }),
    opts,
  );
}

/** PUT /manage/admin/credential/{id}: sets the name and merges the keys into the stored JSON. */
function updateCredential(
  ctx: CallContext,
  credentialId: number,
  body: CredentialDataUpdateRequest,
  opts?: RequestOptions,
): Promise<Credential> {
  return ctx.call(
    (fetch) =>
      ctx.api.PUT('/manage/admin/credential/{credential_id}', {
        params: idParams(credentialId),
        body,
        fetch,
      }),
    opts,
  );
}

/** PATCH /manage/credential/{id}: replaces the stored JSON (keys left out are removed). */
function replaceCredential(
  ctx: CallContext,
  credentialId: number,
  body: CredentialBase,
  opts?: RequestOptions,
): Promise<Credential> {
  return ctx.call(
    (fetch) =>
      ctx.api.PATCH('/manage/credential/{credential_id}', {
        params: idParams(credentialId),
        body,
        fetch,
      }),
    opts,
  );
}

function deleteCredential(
  ctx: CallContext,
  credentialId: number,
  opts?: RequestOptions,
): Promise<StatusResponse> {
  return ctx.call(
    (fetch) =>
      ctx.api.DELETE('/manage/credential/{credential_id}', {
        params: idParams(credentialId),
        fetch,
      }),
    opts,
  );
}

export function listCredentials(ctx: CallContext, opts?: RequestOptions): Promise<Credential[]> {
  const path = '/manage/admin/credential';
  return ctx.call((fetch) => ctx.api.GET(path, { fetch }), opts);
}

/** `kis.credentials`. */
export function credentialsResource(ctx: CallContext): KisClient['credentials'] {
  return {
    list: async (opts) => listCredentials(ctx, opts),
    create: async (body, opts) => createCredential(ctx, body, opts),
    get: async (credentialId, opts) => getCredential(ctx, credentialId, opts),
    update: async (credentialId, body, opts) => updateCredential(ctx, credentialId, body, opts),
    replace: async (credentialId, body, opts) => replaceCredential(ctx, credentialId, body, opts),
    delete: async (credentialId, opts) => deleteCredential(ctx, credentialId, opts),
    async updatePrivateKey(credentialId, input, opts) {
      checkInt('updatePrivateKey: credentialId', credentialId);
      return updatePrivateKey(ctx, credentialId, input, opts);
    },
  };
}
