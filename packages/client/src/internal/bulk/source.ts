/** Pulling from the caller's documents, sync or async, one at a time as the run has room. */
import type { IngestInput } from '../../ingest.js';

type Pull = () => Promise<IteratorResult<IngestInput>> | IteratorResult<IngestInput>;

export function puller(source: Iterable<IngestInput> | AsyncIterable<IngestInput>): {
  pull: Pull;
  close: () => void;
} {
  const asyncIt = (source as AsyncIterable<IngestInput>)[Symbol.asyncIterator];
  if (typeof asyncIt === 'function') {
    const it = asyncIt.call(source);
    return { pull: () => it.next(), close: () => void it.return?.()?.catch?.(() => undefined) };
  }
  const syncIt = (source as Iterable<IngestInput>)[Symbol.iterator];
  if (typeof syncIt !== 'function') {
    throw new TypeError(
      'ingestMany(source): source must be an Iterable or AsyncIterable of documents',
    );
  }
  const it = syncIt.call(source);
  return { pull: () => it.next(), close: () => void it.return?.() };
}
