/** `kis.ingestDocument`: validate one document, fix its id, send it. */
import type { IngestDocumentOptions, IngestDocumentResult } from '../kis-client.js';
import type { IngestionDocumentInput } from '../types.js';
import { prepareIngestion } from './bulk/prepare.js';
import { hasUpdatedAt, updatedAtFor, withUpdatedAt } from './bulk/updated-at.js';
import type { CallContext } from './call.js';
import { ingestionOutcome } from './ingestion-outcome.js';
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
  // no journal here: a document without a time is stamped with the time of the send
  const sending = hasUpdatedAt(body)
    ? body
    : withUpdatedAt(body, updatedAtFor(undefined, new Date(), false));
  const answer = await ingest(ctx, sending, { ...request });
  const version = await ctx.release().catch(() => undefined);
  return {
    documentId: answer.document_id || documentId,
    alreadyExisted: ingestionOutcome(answer.already_existed, version) === 'updated',
  };
}
