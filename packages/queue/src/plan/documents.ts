/**
 * In-memory documents cut into jobs that carry them, each document bounded in size (Redis holds
 * the payload until the job is done; a large document belongs in a file under the root).
 */
import type { IngestInput, IngestionDocumentInput } from '@kis/client';
import { QueueUsageError } from '../errors.js';
import type { PayloadDocument } from '../job-data.js';

export interface DocumentsSource {
  kind: 'documents';
  /** Documents, or items `{ document, ccPairId?, ref? }` (items with `load` cannot be queued). */
  documents: Iterable<IngestInput> | AsyncIterable<IngestInput>;
}

/** Default largest serialised document carried in a job: 1 MiB. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 1024 * 1024;
/** A job's payload stops growing past this many bytes (a job is one Redis value). */
const MAX_JOB_BYTES = 4 * 1024 * 1024;

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** One input as a payload document and its size; throws a one-line error naming it when it cannot be queued. */
export function payloadOf(
  input: IngestInput,
  index: number,
  maxBytes: number,
): { doc: PayloadDocument; bytes: number } {
  const label = `documents[${index}]`;
  if (!isPlainObject(input)) throw new QueueUsageError(`${label} must be a document object`);
  let doc: PayloadDocument;
  if ('semantic_identifier' in input || !('document' in input || 'load' in input)) {
    doc = { document: input as IngestionDocumentInput };
  } else {
    const item = input as { document?: unknown; load?: unknown; ccPairId?: unknown; ref?: unknown };
    const named = typeof item.ref === 'string' ? ` (${item.ref})` : '';
    if (item.load !== undefined) {
      throw new QueueUsageError(
        `${label}${named} has a load function, which cannot travel in a queue job; give its document, or enqueue files`,
      );
    }
    if (!isPlainObject(item.document)) {
      throw new QueueUsageError(`${label}${named}: document must be an object`);
    }
    doc = { document: item.document as unknown as IngestionDocumentInput };
    if (item.ccPairId !== undefined) doc.ccPairId = item.ccPairId as number | null;
    if (typeof item.ref === 'string') doc.ref = item.ref;
  }
  const bytes = Buffer.byteLength(JSON.stringify(doc));
  if (bytes > maxBytes) {
    const named = doc.ref === undefined ? '' : ` (${doc.ref})`;
    throw new QueueUsageError(
      `${label}${named} is ${bytes} bytes serialised, over the ${maxBytes}-byte limit of a document carried in a queue job; write it to a file under the root and enqueue files, or raise maxDocumentBytes`,
    );
  }
  return { doc, bytes };
}

/** The documents in batches of at most `batchSize` (and about 4 MiB). */
export async function* documentBatches(
  source: DocumentsSource,
  batchSize: number,
  maxBytes: number,
): AsyncGenerator<PayloadDocument[]> {
  let batch: PayloadDocument[] = [];
  let bytes = 0;
  let index = 0;
  for await (const input of source.documents) {
    const { doc, bytes: size } = payloadOf(input, index++, maxBytes);
    if (batch.length > 0 && bytes + size > MAX_JOB_BYTES) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(doc);
    bytes += size;
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) yield batch;
}
