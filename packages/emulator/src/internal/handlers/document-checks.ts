// Whether a document is indexed: its number of chunks and tokens, and one chunk's text. Both read
// the index by the exact stored id and answer 404 until the indexing worker has indexed the
// document (`index_state`). Every document is visible to every key that passes the check.
import { LIFECYCLE_ANSWERS } from '@kis/rules';
import { chunksOf, tokensOf } from '../chunks.js';
import { AnswerError } from '../errors.js';
import type { Handlers } from '../op-types.js';
import type { DocumentRecord } from '../store/documents.js';
import type { HandlerContext } from './context.js';

export function documentCheckHandlers(
  ctx: HandlerContext,
): Pick<Handlers, 'getDocumentSizeInfo' | 'getChunkInfo'> {
  const indexed = (id: string): DocumentRecord | undefined => {
    const doc = ctx.store.documents.get(id);
    return doc?.index_state === 'indexed' ? doc : undefined;
  };
  return {
    getDocumentSizeInfo({ params }) {
      const doc = indexed(params.document_id);
      if (doc === undefined) throw new AnswerError(LIFECYCLE_ANSWERS.documentNotIndexed());
      const chunks = chunksOf(doc);
      const tokens = chunks.reduce((sum, chunk) => sum + tokensOf(chunk), 0);
      return { status: 200, body: { num_chunks: chunks.length, num_tokens: tokens } };
    },

    getChunkInfo({ params }) {
      const doc = indexed(params.document_id);
      const chunk = doc === undefined ? undefined : chunksOf(doc)[params.chunk_id];
      if (chunk === undefined) throw new AnswerError(LIFECYCLE_ANSWERS.chunkNotIndexed());
      return { status: 200, body: { content: chunk, num_tokens: tokensOf(chunk) } };
    },
  };
}
