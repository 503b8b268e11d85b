/**
 * `kis.connectors`: creation, listing, update and deletion, and associating a credential on
 * either kind of server
 * (deployed servers' `PUT /manage/connector/{c}/credential/{k}` first, the seed's
 * `/manage/admin/...` path when the server has no such route, see `route-variants.ts`). Every
 * body carries a lower-case `access_type`; the association's also a `name`, as deployed servers
 * require one.
 */
import { isRouteNotFound, prunePatchValue, ROUTE_VARIANTS } from '@kis/rules';
import type { AssociationResult, KisClient } from '../../kis-client.js';
import type { RequestOptions } from '../../request-options.js';
import type {
  Connector,
  ConnectorCreateInput,
  ConnectorCreateRequest,
  ConnectorCredentialPairMetadata,
  ConnectorCredentialPairRequest,
  ObjectCreationIdResponse,
  StatusResponse,
} from '../../types.js';
import { lowerAccess } from '../access.js';
import { checkInt } from '../arguments.js';
import type { CallContext, Hint } from '../call.js';
import { assertConnectorConfig } from '../config-check.js';
import { sentAsGiven } from '../new-source.js';
import { onServedRoute } from '../route-variants.js';
import { runConnectorOnce } from './pair-lifecycle.js';

const [DEPLOYED_PATH, SEED_PATH] = ROUTE_VARIANTS.associate;

/** Said when a create failed in a way that may have created the connector. */
const CONNECTOR_HINT =
  'The connector may or may not have been created; list connectors before retrying.';

/** `connectors.create`: not retried once the server may have acted (it is not idempotent). */
export async function create(
  ctx: CallContext,
  body: ConnectorCreateInput,
  opts: RequestOptions | undefined,
): Promise<ObjectCreationIdResponse> {
  await assertConnectorConfig(body.source, body.connector_specific_config);
  const path = '/manage/admin/connector';
  const sent = sentAsGiven<ConnectorCreateRequest>({
    ...body,
    access_type: lowerAccess(body.access_type),
  });
  const ctl = { ...opts, retryMode: 'unsafe' as const, unsafeHint: CONNECTOR_HINT };
  return ctx.call((fetch) => ctx.api.POST(path, { body: sent, fetch }), ctl, CONNECTOR_HINT);
}

/**
 * The pair name sent when the caller gives none (deployed servers require one since 3.1): the
 * ids, worded as the servers word a pair (`Connector 7 already has Credential 3`).
 */
export function defaultPairName(connectorId: number, credentialId: number): string {
  return `Connector ${connectorId} / Credential ${credentialId}`;
}

/** The body sent on both paths: the caller's, with a name and a lower-case access type. */
export function pairBody(
  connectorId: number,
  credentialId: number,
  given: ConnectorCredentialPairMetadata | undefined,
): ConnectorCredentialPairRequest {
  const { name, access_type, ...rest } = given ?? { access_type: 'public' };
  return {
    ...rest,
    name: name ?? defaultPairName(connectorId, credentialId),
    access_type: lowerAccess(access_type),
  };
}

/**
 * The answer with the pair id it carries, if any: `data` is the new pair's id only when
 * `success` is true. A pair that already exists answers `success: false`, and deployed servers
 * put the connector id in `data` then, which is not a pair id.
 */
export function associationResult(answer: StatusResponse): AssociationResult {
  const ccPairId = answer.success === true && typeof answer.data === 'number' ? answer.data : null;
  return { ...answer, ccPairId };
}

/** `connectors.associateCredential`. */
export async function associate(
  ctx: CallContext,
  connectorId: number,
  credentialId: number,
  given: ConnectorCredentialPairMetadata | undefined,
  opts: RequestOptions | undefined,
): Promise<AssociationResult> {
  const body = pairBody(connectorId, credentialId, given);
  const params = { path: { connector_id: connectorId, credential_id: credentialId } };
  const answer = await ctx.call(
    (fetch) =>
      onServedRoute(ctx.routes, 'associate', (i) =>
        i === 0
          ? ctx.api.PUT(DEPLOYED_PATH, { params, body, fetch })
          : ctx.api.PUT(SEED_PATH, { params, body, fetch }),
      ),
    opts,
  );
  return associationResult(answer);
}

const noDissociation: Hint = (status, body) =>
  isRouteNotFound(status, body)
    ? 'This server has no dissociation route (servers that follow the seed do not offer one).'
    : undefined;

/** `connectors.dissociateCredential`: removes the pair row at once (deployed servers). */
export async function dissociate(
  ctx: CallContext,
  connectorId: number,
  credentialId: number,
  opts: RequestOptions | undefined,
): Promise<StatusResponse> {
  const params = { path: { connector_id: connectorId, credential_id: credentialId } };
  return ctx.call(
    (fetch) => ctx.api.DELETE(DEPLOYED_PATH, { params, fetch }),
    opts,
    noDissociation,
  );
}

export function listConnectors(ctx: CallContext, opts?: RequestOptions): Promise<Connector[]> {
  return ctx.call((fetch) => ctx.api.GET('/manage/connector', { fetch }), opts);
}

function getConnector(
  ctx: CallContext,
  connectorId: number,
  opts?: RequestOptions,
): Promise<Connector> {
  const params = { path: { connector_id: checkInt('connectorId', connectorId) } };
  return ctx.call(
    (fetch) => ctx.api.GET('/manage/connector/{connector_id}', { params, fetch }),
    opts,
  );
}

/**
 * The `prune_freq` an update sends: the body's, else the connector's (read first), and 0 for
 * null, since servers store 604800 for a null and so arm automatic prunes (rule book `pruning.ts`).
 */
async function pruneFreqToSend(
  ctx: CallContext,
  connectorId: number,
  body: ConnectorCreateInput,
  opts?: RequestOptions,
): Promise<number> {
  const given =
    body.prune_freq !== undefined
      ? body.prune_freq
      : (await getConnector(ctx, connectorId, opts)).prune_freq;
  return prunePatchValue(given);
}

/** A full replace with the create body, checked like a create (nothing sent when invalid). */
async function updateConnector(
  ctx: CallContext,
  connectorId: number,
  body: ConnectorCreateInput,
  opts?: RequestOptions,
): Promise<Connector> {
  const params = { path: { connector_id: checkInt('connectorId', connectorId) } };
  await assertConnectorConfig(body.source, body.connector_specific_config);
  const pruneFreq = await pruneFreqToSend(ctx, connectorId, body, opts);
  const sent = sentAsGiven<ConnectorCreateRequest>({
    ...body,
    access_type: lowerAccess(body.access_type),
    prune_freq: pruneFreq,
  });
  return ctx.call(
    (fetch) =>
      ctx.api.PATCH('/manage/admin/connector/{connector_id}', { params, body: sent, fetch }),
    opts,
  );
}

function deleteConnector(
  ctx: CallContext,
  connectorId: number,
  opts?: RequestOptions,
): Promise<StatusResponse> {
  const params = { path: { connector_id: checkInt('connectorId', connectorId) } };
  return ctx.call(
    (fetch) => ctx.api.DELETE('/manage/admin/connector/{connector_id}', { params, fetch }),
    opts,
  );
}

/** `kis.connectors`. */
export function connectorsResource(ctx: CallContext): KisClient['connectors'] {
  return {
    create: async (body, opts) => create(ctx, body, opts),
    async associateCredential(connectorId, credentialId, body, opts) {
      checkInt('associateCredential: connectorId', connectorId);
      checkInt('associateCredential: credentialId', credentialId);
      return associate(ctx, connectorId, credentialId, body, opts);
    },
    async dissociateCredential(connectorId, credentialId, opts) {
      checkInt('dissociateCredential: connectorId', connectorId);
      checkInt('dissociateCredential: credentialId', credentialId);
      return dissociate(ctx, connectorId, credentialId, opts);
    },
    list: async (opts) => listConnectors(ctx, opts),
    get: async (connectorId, opts) => getConnector(ctx, connectorId, opts),
    update: async (connectorId, body, opts) => updateConnector(ctx, connectorId, body, opts),
    delete: async (connectorId, opts) => deleteConnector(ctx, connectorId, opts),
    runOnce: async (connectorId, opts) => runConnectorOnce(ctx, connectorId, opts),
  };
}
