/** `kis.ingestDocument`: validate one document, fix its id, send it. */
import type { IngestEngine } from '../ingest.js';
import type { IngestDocumentOptions, IngestDocumentResult } from '../kis-client.js';
import type { IngestionDocumentInput } from '../types.js';
import { prepareIngestion } from './bulk/prepare.js';
import { hasUpdatedAt, updatedAtFor, withUpdatedAt } from './bulk/updated-at.js';
import { ingestionOutcome } from './ingestion-outcome.js';

/** Validate, fix the id, send one document (see `KisClient.ingestDocument`). */
export async function ingestDocument(
  engine: IngestEngine,
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
    log: engine.log,
  });
  // no journal here: a document without a time is stamped with the time of the send
  const sending = hasUpdatedAt(body)
    ? body
    : withUpdatedAt(body, updatedAtFor(undefined, new Date(), false));
  const answer = await engine.ingest(sending, { ...request });
  const version = await engine.release().catch(() => undefined);
  return {
    documentId: answer.document_id || documentId,
    alreadyExisted: ingestionOutcome(answer.already_existed, version) === 'updated',
  };
}
