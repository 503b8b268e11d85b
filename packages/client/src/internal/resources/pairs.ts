/**
 * The listing, update and delete calls of connectors, credentials and pairs that deployed servers
 * have (`docs/deployed-servers.md`, "Listing, updating and deleting"): what `kis.plan` reads and
 * `kis.apply` changes. Loaded with the lazy part.
 */
import { APIError } from '../errors.js';
import type {
  CcPairFullInfo,
  CcPairStatus,
  Connector,
  ConnectorCreateRequest,
  ConnectorStatus,
  Credential,
  CredentialBase,
  CredentialDataUpdateRequest,
  StatusResponse,
} from '../types.js';
import type { CallContext } from './call.js';
import type { RequestOptions } from './transport.js';

const id = (name: string, value: number) => {
  if (!Number.isInteger(value) || value < 0) {
    throw new TypeError(`${name} must be an integer ≥ 0 (got ${String(value)})`);
  }
  return value;
};

export function listConnectors(ctx: CallContext, opts?: RequestOptions): Promise<Connector[]> {
  const path = '/manage/connector';
  return ctx.unwrap(ctx.inner.GET(path, { fetch: ctx.via({ ...opts }) }), 'GET', path);
}

export function getConnector(
  ctx: CallContext,
  connectorId: number,
  opts?: RequestOptions,
): Promise<Connector> {
  const params = { path: { connector_id: id('connectorId', connectorId) } };
  return ctx.unwrap(
    ctx.inner.GET('/manage/connector/{connector_id}', { params, fetch: ctx.via({ ...opts }) }),
    'GET',
    `/manage/connector/${connectorId}`,
  );
}

export function updateConnector(
  ctx: CallContext,
  connectorId: number,
  body: ConnectorCreateRequest,
  opts?: RequestOptions,
): Promise<Connector> {
  const params = { path: { connector_id: id('connectorId', connectorId) } };
  return ctx.unwrap(
    ctx.inner.PATCH('/manage/admin/connector/{connector_id}', {
      params,
      body,
      fetch: ctx.via({ ...opts }),
    }),
    'PATCH',
    `/manage/admin/connector/${connectorId}`,
  );
}

export function deleteConnector(
  ctx: CallContext,
  connectorId: number,
  opts?: RequestOptions,
): Promise<StatusResponse> {
  const params = { path: { connector_id: id('connectorId', connectorId) } };
  return ctx.unwrap(
    ctx.inner.DELETE('/manage/admin/connector/{connector_id}', {
      params,
      fetch: ctx.via({ ...opts }),
    }),
    'DELETE',
    `/manage/admin/connector/${connectorId}`,
  );
}

export function getCredential(
  ctx: CallContext,
  credentialId: number,
  opts?: RequestOptions,
): Promise<Credential> {
  const params = { path: { credential_id: id('credentialId', credentialId) } };
  return ctx.unwrap(
    ctx.inner.GET('/manage/credential/{credential_id}', { params, fetch: ctx.via({ ...opts }) }),
    'GET',
    `/manage/credential/${credentialId}`,
  );
}

/** PUT /manage/admin/credential/{id}: sets the name and merges the keys into the stored JSON. */
export function updateCredential(
  ctx: CallContext,
  credentialId: number,
  body: CredentialDataUpdateRequest,
  opts?: RequestOptions,
): Promise<Credential> {
  const params = { path: { credential_id: id('credentialId', credentialId) } };
  return ctx.unwrap(
    ctx.inner.PUT('/manage/admin/credential/{credential_id}', {
      params,
      body,
      fetch: ctx.via({ ...opts }),
    }),
    'PUT',
    `/manage/admin/credential/${credentialId}`,
  );
}

/** PATCH /manage/credential/{id}: replaces the stored JSON (keys left out are removed). */
export function replaceCredentialJson(
  ctx: CallContext,
  credentialId: number,
  body: CredentialBase,
  opts?: RequestOptions,
): Promise<Credential> {
  const params = { path: { credential_id: id('credentialId', credentialId) } };
  return ctx.unwrap(
    ctx.inner.PATCH('/manage/credential/{credential_id}', {
      params,
      body,
      fetch: ctx.via({ ...opts }),
    }),
    'PATCH',
    `/manage/credential/${credentialId}`,
  );
}

export function deleteCredential(
  ctx: CallContext,
  credentialId: number,
  opts?: RequestOptions,
): Promise<StatusResponse> {
  const params = { path: { credential_id: id('credentialId', credentialId) } };
  return ctx.unwrap(
    ctx.inner.DELETE('/manage/credential/{credential_id}', {
      params,
      fetch: ctx.via({ ...opts }),
    }),
    'DELETE',
    `/manage/credential/${credentialId}`,
  );
}

export function listPairs(ctx: CallContext, opts?: RequestOptions): Promise<ConnectorStatus[]> {
  const path = '/manage/admin/connector/status';
  return ctx.unwrap(ctx.inner.GET(path, { fetch: ctx.via({ ...opts }) }), 'GET', path);
}

export function getPair(
  ctx: CallContext,
  ccPairId: number,
  opts?: RequestOptions,
): Promise<CcPairFullInfo> {
  const params = { path: { cc_pair_id: id('ccPairId', ccPairId) } };
  return ctx.unwrap(
    ctx.inner.GET('/manage/admin/cc-pair/{cc_pair_id}', { params, fetch: ctx.via({ ...opts }) }),
    'GET',
    `/manage/admin/cc-pair/${ccPairId}`,
  );
}

export async function renamePair(
  ctx: CallContext,
  ccPairId: number,
  name: string,
  opts?: RequestOptions,
): Promise<void> {
  if (typeof name !== 'string' || name === '') {
    throw new TypeError('pairs.rename: name must be a non-empty string');
  }
  const params = { path: { cc_pair_id: id('ccPairId', ccPairId) }, query: { new_name: name } };
  await ctx.unwrap(
    ctx.inner.PUT('/manage/admin/cc-pair/{cc_pair_id}/name', {
      params,
      fetch: ctx.via({ ...opts }),
    }),
    'PUT',
    `/manage/admin/cc-pair/${ccPairId}/name`,
  );
}

export async function setPairStatus(
  ctx: CallContext,
  ccPairId: number,
  status: Extract<CcPairStatus, 'ACTIVE' | 'PAUSED'>,
  opts?: RequestOptions,
): Promise<void> {
  const params = { path: { cc_pair_id: id('ccPairId', ccPairId) } };
  await ctx.unwrap(
    ctx.inner.PUT('/manage/admin/cc-pair/{cc_pair_id}/status', {
      params,
      body: { status },
      fetch: ctx.via({ ...opts }),
    }),
    'PUT',
    `/manage/admin/cc-pair/${ccPairId}/status`,
  );
}

/**
 * POST /manage/admin/deletion-attempt: the server removes the pair's documents from the index,
 * then the pair, then the connector if no pair is left, in the background. Repeating it is safe.
 */
export async function requestPairDeletion(
  ctx: CallContext,
  connectorId: number,
  credentialId: number,
  opts?: RequestOptions,
): Promise<void> {
  const body = {
    connector_id: id('connectorId', connectorId),
    credential_id: id('credentialId', credentialId),
  };
  const path = '/manage/admin/deletion-attempt';
  await ctx.unwrap(ctx.inner.POST(path, { body, fetch: ctx.via({ ...opts }) }), 'POST', path);
}

export interface WaitOptions extends RequestOptions {
  /** Give up after this long (default 10 minutes). */
  waitMs?: number | undefined;
}

/** Polls GET /manage/admin/cc-pair/{id} until it answers 404; rejects after `waitMs`. */
export async function waitUntilPairGone(
  ctx: CallContext,
  ccPairId: number,
  opts: WaitOptions = {},
): Promise<void> {
  const { waitMs = 600_000, ...request } = opts;
  const deadline = Date.now() + waitMs;
  let pause = 100;
  for (;;) {
    try {
      await getPair(ctx, ccPairId, request);
    } catch (err) {
      if (APIError.isInstance(err) && err.status === 404) return;
      throw err;
    }
    if (Date.now() + pause > deadline) {
      throw new Error(
        `pair ${ccPairId} is still there ${Math.round(waitMs / 1000)} s after its deletion was requested`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 5_000);
  }
}
