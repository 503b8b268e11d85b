/** Pulling from the caller's documents, sync or async, one at a time as the run has room. */
import type { IngestInput, IngestItem } from '../../ingest.js';

/** An `IngestItem` (a document with options, or a loader), as opposed to a bare document. */
export function isItem(x: unknown): x is IngestItem {
  if (typeof x !== 'object' || x === null || 'semantic_identifier' in x) return false;
  return (
    ('document' in x && typeof (x as { document: unknown }).document === 'object') ||
    ('load' in x && typeof (x as { load: unknown }).load === 'function')
  );
}

export type Pull = () => Promise<IteratorResult<IngestInput>> | IteratorResult<IngestInput>;

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
