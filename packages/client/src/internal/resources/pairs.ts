/**
 * `kis.pairs`: connector/credential pairs on deployed servers (`docs/deployed-servers.md`,
 * "Listing, updating and deleting"): listing, detail, renaming, pausing and deletion.
 */
import { APIError } from '../../errors.js';
import type { KisClient } from '../../kis-client.js';
import type { RequestOptions } from '../../request-options.js';
import type { CcPairFullInfo, CcPairStatus, ConnectorStatus } from '../../types.js';
import { checkInt } from '../arguments.js';
import type { CallContext } from '../call.js';
import { previewPrune } from '../prune-preview.js';
import { listConnectorDocuments } from './ingestion.js';
import {
  attempts,
  errors,
  indexingStatus,
  lastPruned,
  prune,
  runConnectorOnce,
} from './pair-lifecycle.js';

const id = (name: string, value: number) => checkInt(name, value);

function listPairs(ctx: CallContext, opts?: RequestOptions): Promise<ConnectorStatus[]> {
  const path = '/manage/admin/connector/status';
  return ctx.call((fetch) => ctx.api.GET(path, { fetch }), opts);
}

function getPair(
  ctx: CallContext,
  ccPairId: number,
  opts?: RequestOptions,
): Promise<CcPairFullInfo> {
  const params = { path: { cc_pair_id: id('ccPairId', ccPairId) } };
  return ctx.call(
    (fetch) => ctx.api.GET('/manage/admin/cc-pair/{cc_pair_id}', { params, fetch }),
    opts,
  );
}

async function renamePair(
  ctx: CallContext,
  ccPairId: number,
  name: string,
  opts?: RequestOptions,
): Promise<void> {
  if (typeof name !== 'string' || name === '') {
    throw new TypeError('pairs.rename: name must be a non-empty string');
  }
  const params = { path: { cc_pair_id: id('ccPairId', ccPairId) }, query: { new_name: name } };
  await ctx.call(
    (fetch) =>
      ctx.api.PUT('/manage/admin/cc-pair/{cc_pair_id}/name', {
        params,
        fetch,
      }),
    opts,
  );
}

async function setPairStatus(
  ctx: CallContext,
  ccPairId: number,
  status: Extract<CcPairStatus, 'ACTIVE' | 'PAUSED'>,
  opts?: RequestOptions,
): Promise<void> {
  const params = { path: { cc_pair_id: id('ccPairId', ccPairId) } };
  await ctx.call(
    (fetch) =>
      ctx.api.PUT('/manage/admin/cc-pair/{cc_pair_id}/status', {
        params,
        body: { status },
        fetch,
      }),
    opts,
  );
}

/**
 * POST /manage/admin/deletion-attempt: the server removes the pair's documents from the index,
 * then the pair, then the connector if no pair is left, in the background. Repeating it is safe.
 */
async function requestPairDeletion(
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
  await ctx.call((fetch) => ctx.api.POST(path, { body, fetch }), opts);
}

export interface WaitOptions extends RequestOptions {
  /** Give up after this long (default 10 minutes). */
  waitMs?: number | undefined;
}

/** Polls GET /manage/admin/cc-pair/{id} until it answers 404; rejects after `waitMs`. */
async function waitUntilPairGone(
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

/** `kis.pairs`. */
export function pairsResource(ctx: CallContext): KisClient['pairs'] {
  return {
    list: async (opts) => listPairs(ctx, opts),
    get: async (ccPairId, opts) => getPair(ctx, ccPairId, opts),
    rename: async (ccPairId, name, opts) => renamePair(ctx, ccPairId, name, opts),
    setStatus: async (ccPairId, status, opts) => setPairStatus(ctx, ccPairId, status, opts),
    requestDeletion: async (connectorId, credentialId, opts) =>
      requestPairDeletion(ctx, connectorId, credentialId, opts),
    waitUntilGone: async (ccPairId, opts) => waitUntilPairGone(ctx, ccPairId, opts),
    pause: async (ccPairId, opts) => setPairStatus(ctx, ccPairId, 'PAUSED', opts),
    resume: async (ccPairId, opts) => setPairStatus(ctx, ccPairId, 'ACTIVE', opts),
    async run(ccPairId, opts = {}) {
      const { fromBeginning, ...request } = opts;
      const pair = await getPair(ctx, ccPairId, request);
      return runConnectorOnce(ctx, pair.connector.id, {
        ...request,
        fromBeginning,
        credentialIds: [pair.credential.id],
      });
    },
    async delete(ccPairId, opts) {
      const pair = await getPair(ctx, ccPairId, opts);
      await requestPairDeletion(ctx, pair.connector.id, pair.credential.id, opts);
    },
    attempts: (ccPairId, opts) => attempts(ctx, ccPairId, opts),
    errors: (ccPairId, opts) => errors(ctx, ccPairId, opts),
    prune: async (ccPairId, opts) => prune(ctx, ccPairId, opts),
    async prunePreview(ccPairId, opts) {
      const [pair, documents] = await Promise.all([
        getPair(ctx, ccPairId, opts),
        listConnectorDocuments(ctx, ccPairId, opts),
      ]);
      return previewPrune(pair, documents);
    },
    lastPruned: async (ccPairId, opts) => lastPruned(ctx, ccPairId, opts),
    indexingStatus: async (filters, opts) => indexingStatus(ctx, filters, opts),
  };
}
