// A pair's index attempts and indexing errors, one page at a time, newest first, with the total
// over all pages. Deployed servers do not look the pair up for its errors: an unknown pair has
// none (the rule book's answer); servers of the seed's kind answer 404.
import { LIFECYCLE_ANSWERS } from '@kis/rules';
import { AnswerError } from '../errors.js';
import type { Handlers } from '../op-types.js';
import { indexAttemptView, indexingErrorView } from '../pair-views.js';
import type { HandlerContext } from './context.js';
import { knownPair } from './pair-lookup.js';

/** The spec's default page: the first, of 10 items. */
const FIRST_PAGE = 0;
const PAGE_SIZE = 10;

export function attemptListingHandlers(
  ctx: HandlerContext,
): Pick<Handlers, 'listIndexAttempts' | 'listIndexingErrors'> {
  const { store } = ctx;
  return {
    listIndexAttempts({ params }) {
      const pair = knownPair(ctx, 'listIndexAttempts', params.cc_pair_id);
      const pageNum = params.page_num ?? FIRST_PAGE;
      const pageSize = params.page_size ?? PAGE_SIZE;
      const items = store.indexAttempts.pageOfPair(pair.id, pageNum, pageSize);
      return {
        status: 200,
        body: {
          items: items.map(indexAttemptView),
          total_items: store.indexAttempts.countOfPair(pair.id),
        },
      };
    },

    listIndexingErrors({ params }) {
      const id = params.cc_pair_id;
      if (store.pairs.get(id) === undefined) {
        throw new AnswerError(LIFECYCLE_ANSWERS.unknownPair(ctx.kind, 'listIndexingErrors', id));
      }
      const resolved = params.include_resolved ?? false;
      const pageNum = params.page_num ?? FIRST_PAGE;
      const pageSize = params.page_size ?? PAGE_SIZE;
      const items = store.indexingErrors.pageOfPair(id, resolved, pageNum, pageSize);
      return {
        status: 200,
        body: {
          items: items.map(indexingErrorView),
          total_items: store.indexingErrors.countOfPair(id, resolved),
        },
      };
    },
  };
}
