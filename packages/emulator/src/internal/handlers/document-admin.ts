// The admin calls on one document (`manage/administrative.py`): its `hidden` flag and its boost,
// set in the database (the index reads them from there), and the documents ranked by boost. The
// notes do not detail these routes: the answers are the rule book's modelled ones.
import { LIFECYCLE_ANSWERS } from '@kis/rules';
import { AnswerError } from '../errors.js';
import { type Handlers, ruleBookResult } from '../op-types.js';
import type { HandlerContext } from './context.js';

export function documentAdminHandlers(
  ctx: HandlerContext,
): Pick<Handlers, 'setDocumentHidden' | 'setDocumentBoost' | 'listBoostedDocuments'> {
  const { store, behaviour } = ctx;
  const unknown = (id: string) => new AnswerError(LIFECYCLE_ANSWERS.documentUpdateUnknown(id));
  return {
    setDocumentHidden({ body }) {
      if (!store.documents.setHidden(body.document_id, body.hidden))
        throw unknown(body.document_id);
      return ruleBookResult<'setDocumentHidden'>(LIFECYCLE_ANSWERS.documentUpdated());
    },

    setDocumentBoost({ body }) {
      if (!store.documents.setBoost(body.document_id, body.boost)) throw unknown(body.document_id);
      return ruleBookResult<'setDocumentBoost'>(LIFECYCLE_ANSWERS.documentUpdated());
    },

    listBoostedDocuments({ params }) {
      const docs = store.documents.byBoost(params.ascending, Math.max(0, params.limit));
      return {
        status: 200,
        body: docs.map((d) => ({
          document_id: d.id,
          semantic_id: d.semantic_identifier,
          link: d.link ?? behaviour.missingLink ?? '',
          boost: d.boost,
          hidden: d.hidden,
        })),
      };
    },
  };
}
