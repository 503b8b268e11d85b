/**
 * `kis.ingestion`: the ingestion call (the bulk hot path: one per document), the listings of
 * ingested documents, and deletion by stored id.
 */
import type { KisClient } from '../../kis-client.js';
import type { CallControl, RequestOptions } from '../../request-options.js';
import type {
  IngestedDocumentSummary,
  IngestionRequestInput,
  IngestionResult,
  StatusResponse,
} from '../../types.js';
import { checkInt } from '../arguments.js';
import type { CallContext } from '../call.js';
import { ingestionAsGiven } from '../new-source.js';

const INGESTION = '/svc-api/ingestion';

/** POST /svc-api/ingestion with the call's controls (bulk runs pass their own). */
export function ingest(
  ctx: CallContext,
  body: IngestionRequestInput,
  control: CallControl,
): Promise<IngestionResult> {
  return ctx.call(
    (fetch) => ctx.api.POST(INGESTION, { body: ingestionAsGiven(body), fetch }),
    control,
  );
}

export function listConnectorDocuments(
  ctx: CallContext,
  ccPairId: number,
  opts?: RequestOptions,
): Promise<IngestedDocumentSummary[]> {
  const params = { path: { cc_pair_id: checkInt('listConnectorDocuments: ccPairId', ccPairId) } };
  return ctx.call(
    (fetch) => ctx.api.GET('/svc-api/connector-docs/{cc_pair_id}', { params, fetch }),
    opts,
  );
}

async function deleteDocument(
  ctx: CallContext,
  documentId: string,
  opts?: RequestOptions,
): Promise<StatusResponse | null> {
  if (typeof documentId !== 'string' || documentId === '') {
    throw new TypeError('ingestion.delete: documentId must be a non-empty string');
  }
  const params = { path: { document_id: documentId } };
  const data = await ctx.call(
    (fetch) => ctx.api.DELETE('/svc-api/ingestion/{document_id}', { params, fetch }),
    opts,
  );
  return data ?? null;
}

/** `kis.ingestion`. */
export function ingestionResource(
  ctx: CallContext,
): Omit<KisClient['ingestion'], 'connectorDocuments'> {
  return {
    ingest: async (request, opts) => ingest(ctx, request, { ...opts }),
    list: async (opts) => ctx.call((fetch) => ctx.api.GET(INGESTION, { fetch }), opts),
    delete: async (documentId, opts) => deleteDocument(ctx, documentId, opts),
    listConnectorDocuments: async (ccPairId, opts) => listConnectorDocuments(ctx, ccPairId, opts),
  };
}
