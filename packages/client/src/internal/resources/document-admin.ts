/**
 * The admin calls on one document (deployed servers): its `hidden` flag (admin keyword search
 * still finds a hidden document; a re-embedding push resets it), its boost, and the documents
 * ranked by boost. Part of `kis.documents`, loaded on first use.
 */
import type { KisClient } from '../../kis-client.js';
import type { RequestOptions } from '../../request-options.js';
import type { BoostedOptions } from '../../search-options.js';
import type { BoostDoc, StatusResponse } from '../../types.js';
import { checkId, checkInt } from '../arguments.js';
import type { CallContext } from '../call.js';

/** POST /manage/admin/doc-hidden. */
function setHidden(
  ctx: CallContext,
  documentId: string,
  hidden: boolean,
  opts?: RequestOptions,
): Promise<StatusResponse> {
  if (typeof hidden !== 'boolean')
    throw new TypeError('documents.setHidden: hidden must be a boolean');
  const path = '/manage/admin/doc-hidden';
  return ctx.unwrap(
    ctx.api.POST(path, {
      body: { document_id: checkId(documentId), hidden },
      fetch: ctx.via({ ...opts }),
    }),
    'POST',
    path,
  );
}

/** POST /manage/admin/doc-boosts. */
function setBoost(
  ctx: CallContext,
  documentId: string,
  boost: number,
  opts?: RequestOptions,
): Promise<StatusResponse> {
  if (!Number.isInteger(boost)) throw new TypeError('documents.setBoost: boost must be an integer');
  const path = '/manage/admin/doc-boosts';
  return ctx.unwrap(
    ctx.api.POST(path, {
      body: { document_id: checkId(documentId), boost },
      fetch: ctx.via({ ...opts }),
    }),
    'POST',
    path,
  );
}

/** GET /manage/admin/doc-boosts. */
function boosted(ctx: CallContext, opts: BoostedOptions = {}): Promise<BoostDoc[]> {
  const { ascending = false, limit = 100, ...request } = opts;
  const path = '/manage/admin/doc-boosts';
  return ctx.unwrap(
    ctx.api.GET(path, {
      params: { query: { ascending, limit: checkInt('limit', limit, 1) } },
      fetch: ctx.via({ ...request }),
    }),
    'GET',
    `${path}?ascending=${ascending}&limit=${limit}`,
  );
}

/** The admin calls of `kis.documents`. */
export function documentAdmin(
  ctx: CallContext,
): Pick<KisClient['documents'], 'setHidden' | 'setBoost' | 'boosted'> {
  return {
    setHidden: async (documentId, hidden, opts) => setHidden(ctx, documentId, hidden, opts),
    setBoost: async (documentId, boost, opts) => setBoost(ctx, documentId, boost, opts),
    boosted: async (opts) => boosted(ctx, opts),
  };
}
