// Writing the search index: documents queued by ingestion are chunked and written into the
// PRESENT index in batches (the indexer's work), stamped with their readers and set names
// (document-readers.ts); during a model switch a push also writes the new index at once; a port
// copies a document's chunks from the PRESENT index into the new one; and a sync re-stamps
// documents where an index holds them, without re-chunking.
import { chunkWrites } from './chunks.js';
import type { DocumentReaders, ReaderSnapshot } from './document-readers.js';
import type { DocumentRecord } from './store/documents.js';
import type { Store } from './store/index.js';

export class IndexWriter {
  constructor(
    private readonly store: Store,
    private readonly readers: DocumentReaders,
  ) {}

  /** The pairs' facts now, to stamp many documents. */
  snapshot(): ReaderSnapshot {
    return this.readers.snapshot();
  }

  /** Writes up to `limit` queued documents into the PRESENT index; how many were written. */
  indexQueued(limit: number): number {
    const { store } = this;
    const docs = store.documents.queued(limit);
    if (docs.length === 0) return 0;
    const snapshot = this.readers.snapshot();
    const present = store.presentSettingsId();
    store.transaction(() => {
      for (const doc of docs) {
        store.searchIndex.write(
          present,
          doc.seq,
          chunkWrites(doc),
          snapshot.stampOf(doc.cc_pair_ids),
        );
        store.documents.markIndexed(doc.seq);
      }
    });
    return docs.length;
  }

  /** Chunks and embeds a stored document into one index (a push during a model switch). */
  writeInto(settingsId: number, doc: DocumentRecord, snapshot = this.readers.snapshot()): void {
    const { store } = this;
    store.transaction(() => {
      store.searchIndex.write(
        settingsId,
        doc.seq,
        chunkWrites(doc),
        snapshot.stampOf(doc.cc_pair_ids),
      );
      store.documents.countEmbedding(doc.seq);
    });
  }

  /**
   * Copies a document's chunks from one index into another and re-embeds them (a port); false,
   * and nothing written, when the source index holds no chunk of it.
   */
  port(fromId: number, toId: number, doc: DocumentRecord, snapshot: ReaderSnapshot): boolean {
    const { store } = this;
    const chunks = store.searchIndex.chunks(fromId, doc.seq);
    if (chunks.length === 0) return false;
    store.transaction(() => {
      const writes = chunks.map((c) => ({ text: c.content, link: c.link }));
      store.searchIndex.write(toId, doc.seq, writes, snapshot.stampOf(doc.cc_pair_ids));
      store.documents.countEmbedding(doc.seq);
    });
    return true;
  }

  /** Stamps anew, in every live index, the documents of these pairs (a set's or group's sync). */
  restampPairs(pairIds: readonly number[]): void {
    this.restamp(this.store.documents.ofPairs(pairIds));
  }

  /** Stamps anew, in every live index, these documents (by seq). */
  restamp(seqs: readonly number[]): void {
    const { store } = this;
    if (seqs.length === 0) return;
    const snapshot = this.readers.snapshot();
    const indexes = [store.presentSettingsId(), store.futureSettingsId()].filter(
      (id): id is number => id !== undefined,
    );
    store.transaction(() => {
      for (const seq of seqs) {
        const doc = store.documents.bySeq(seq);
        if (doc === undefined) continue;
        const stamp = snapshot.stampOf(doc.cc_pair_ids);
        for (const id of indexes) store.searchIndex.stamp(id, seq, stamp);
      }
    });
  }
}
