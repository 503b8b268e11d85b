// Whether a document is indexed: its number of chunks and tokens, and one chunk's text. Both read
// the PRESENT index by the exact stored id, as the caller may see it (visibility.ts: no admin
// bypass), and answer 404 alike for a document not (yet) indexed, stored without chunks, or not
// visible to the caller (`document.py:35-39,80-91`). A hidden document is answered by a Vespa
// index, not by an OpenSearch one (`INDEX_BACKENDS`).
import { INDEX_BACKENDS, LIFECYCLE_ANSWERS } from '@kis/rules';
import { tokensOf } from '../chunks.js';
import { AnswerError } from '../errors.js';
import type { Handlers } from '../op-types.js';
import { known } from './actors.js';
import type { HandlerContext } from './context.js';

export function documentCheckHandlers(
  ctx: HandlerContext,
): Pick<Handlers, 'getDocumentSizeInfo' | 'getChunkInfo'> {
  const { store } = ctx;
  const checksSeeHidden = INDEX_BACKENDS[ctx.indexBackend].checksSeeHidden;
  /** The document's chunks in the PRESENT index, when the caller may see it. */
  const visibleChunks = (documentId: string, caller: Parameters<typeof known>[0]) => {
    const doc = store.documents.get(documentId);
    if (doc === undefined || (doc.hidden && !checksSeeHidden)) return undefined;
    const present = store.presentSettingsId();
    const entry = store.searchIndex.entry(present, doc.seq);
    if (entry === undefined || !ctx.visibility.viewer(known(caller)).sees(entry.readers)) {
      return undefined;
    }
    const chunks = store.searchIndex.chunks(present, doc.seq);
    return chunks.length > 0 ? chunks : undefined;
  };
  return {
    getDocumentSizeInfo({ params, caller }) {
      const chunks = visibleChunks(params.document_id, caller);
      if (chunks === undefined) throw new AnswerError(LIFECYCLE_ANSWERS.documentNotIndexed());
      const tokens = chunks.reduce((sum, chunk) => sum + tokensOf(chunk.content), 0);
      return { status: 200, body: { num_chunks: chunks.length, num_tokens: tokens } };
    },

    getChunkInfo({ params, caller }) {
      const chunk = visibleChunks(params.document_id, caller)?.find(
        (c) => c.chunk_ind === params.chunk_id,
      );
      if (chunk === undefined) throw new AnswerError(LIFECYCLE_ANSWERS.chunkNotIndexed());
      return { status: 200, body: { content: chunk.content, num_tokens: tokensOf(chunk.content) } };
    },
  };
}
