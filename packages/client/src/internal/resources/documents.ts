/**
 * `kis.documents`: whether a document is in the index, read from the vector index by its stored
 * id as the key may see it (deployed servers; 404 until the document's chunks are written, and
 * for a key that may not see it); its admin calls (hide, boost) load on first use
 * (`document-admin.ts`).
 */
import type { KisClient } from '../../kis-client.js';
import type { RequestOptions } from '../../request-options.js';
import type { ChunkInfo, DocumentSizeInfo } from '../../types.js';
import { checkId, checkInt } from '../arguments.js';
import type { CallContext } from '../call.js';
import { onFirstUse } from '../on-first-use.js';

function sizeInfo(
  ctx: CallContext,
  documentId: string,
  opts?: RequestOptions,
): Promise<DocumentSizeInfo> {
  const path = '/document/document-size-info';
  return ctx.unwrap(
    ctx.api.GET(path, {
      params: { query: { document_id: checkId(documentId) } },
      fetch: ctx.via({ ...opts }),
    }),
    'GET',
    `${path}?document_id=${encodeURIComponent(documentId)}`,
  );
}

function chunkInfo(
  ctx: CallContext,
  documentId: string,
  chunkId: number,
  opts?: RequestOptions,
): Promise<ChunkInfo> {
  const path = '/document/chunk-info';
  return ctx.unwrap(
    ctx.api.GET(path, {
      params: {
        query: { document_id: checkId(documentId), chunk_id: checkInt('chunkId', chunkId) },
      },
      fetch: ctx.via({ ...opts }),
    }),
    'GET',
    `${path}?document_id=${encodeURIComponent(documentId)}&chunk_id=${chunkId}`,
  );
}

/** `kis.documents`. */
export function documentsResource(ctx: CallContext): KisClient['documents'] {
  return {
    sizeInfo: async (documentId, opts) => sizeInfo(ctx, documentId, opts),
    chunkInfo: async (documentId, chunkId, opts) => chunkInfo(ctx, documentId, chunkId, opts),
    ...onFirstUse(
      async () => (await import('./scoping.js')).documentAdmin(ctx),
      ['setHidden', 'setBoost', 'boosted'],
    ),
  };
}
