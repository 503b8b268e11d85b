/** `kis.ingestDocument`: validate one document, fix its id, send it. */
import type { IngestDocumentOptions, IngestDocumentResult } from '../kis-client.js';
import type { IngestionDocumentInput } from '../types.js';
import { prepareIngestion } from './bulk/prepare.js';
import type { CallContext } from './call.js';
import { ingest } from './resources/ingestion.js';

/** Validate, fix the id, send one document (see `KisClient.ingestDocument`). */
export async function ingestDocument(
  ctx: CallContext,
  document: IngestionDocumentInput,
  opts: IngestDocumentOptions = {},
): Promise<IngestDocumentResult> {
  const { ccPairId, validate, ...request } = opts;
  if (
    ccPairId !== undefined &&
    ccPairId !== null &&
    !(Number.isInteger(ccPairId) && ccPairId >= 0)
  ) {
    throw new TypeError(
      `ingestDocument: ccPairId must be an integer ≥ 0 (got ${String(ccPairId)})`,
    );
  }
  const { body, documentId } = prepareIngestion(document, ccPairId, validate !== false, {
    log: ctx.log,
  });
  const answer = await ingest(ctx, body, { ...request });
  return {
    documentId: answer.document_id || documentId,
    alreadyExisted: answer.already_existed,
  };
}
