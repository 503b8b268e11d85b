/** `kis.ingestMany`: its arguments checked at the call (a TypeError naming the argument), then the run. */
import type { IngestInput, IngestManyOptions, IngestRun } from '../../ingest.js';
import type { CallContext } from '../call.js';
import { BulkRun } from './run.js';

export function startIngestRun(
  ctx: CallContext,
  source: Iterable<IngestInput> | AsyncIterable<IngestInput>,
  options: IngestManyOptions = {},
): IngestRun {
  if (
    source === null ||
    typeof source !== 'object' ||
    !(Symbol.iterator in source || Symbol.asyncIterator in source)
  ) {
    throw new TypeError(
      'ingestMany(source): source must be an Iterable or AsyncIterable of documents',
    );
  }
  const c = options.concurrency;
  if (c !== undefined && !(Number.isInteger(c) && c >= 1)) {
    throw new TypeError(`ingestMany: concurrency must be an integer ≥ 1 (got ${String(c)})`);
  }
  const p = options.ccPairId;
  if (p !== undefined && p !== null && !(Number.isInteger(p) && p >= 0)) {
    throw new TypeError(`ingestMany: ccPairId must be an integer ≥ 0 (got ${String(p)})`);
  }
  return new BulkRun(ctx, source, options);
}
