/**
 * `kis.ingestion.connectorDocuments`: a pair's listing read one document at a time. Servers answer
 * it whole (no paging), so the answer is kept as bytes and each document parsed as the caller's
 * loop reaches it: 100,000 documents hold their 10 MB of text, never 30 MB of objects at once.
 */
import type { DocumentListing, KisClient } from '../../kis-client.js';
import type { RequestOptions } from '../../request-options.js';
import type { IngestedDocumentSummary } from '../../types.js';
import { checkInt } from '../arguments.js';
import type { CallContext } from '../call.js';
import { arrayElements, countElements } from '../json-array.js';

async function connectorDocuments(
  ctx: CallContext,
  ccPairId: number,
  opts?: RequestOptions,
): Promise<DocumentListing> {
  const params = { path: { cc_pair_id: checkInt('connectorDocuments: ccPairId', ccPairId) } };
  const buffer = await ctx.call(
    (fetch) =>
      ctx.api.GET('/svc-api/connector-docs/{cc_pair_id}', {
        params,
        parseAs: 'arrayBuffer',
        fetch,
      }),
    opts,
  );
  const bytes = new Uint8Array(buffer);
  const count = countElements(bytes);
  return {
    count,
    [Symbol.iterator]: () => arrayElements(bytes) as Iterator<IngestedDocumentSummary>,
  };
}

/** The listing call of `kis.ingestion` that loads on first use. */
export function listingResource(
  ctx: CallContext,
): Pick<KisClient['ingestion'], 'connectorDocuments'> {
  return { connectorDocuments: async (ccPairId, opts) => connectorDocuments(ctx, ccPairId, opts) };
}
