/**
 * What happens to a pair after it is created (deployed servers; `docs/deployed-servers.md`,
 * "Operating connectors"): its index attempts and errors (paged listings read as async
 * iterators), running its connector once, pruning, and the indexing-status listing.
 */
import type { ErrorListOptions, PageOptions, RunOptions } from '../../pair-options.js';
import type { RequestOptions } from '../../request-options.js';
import type {
  IndexAttempt,
  IndexingError,
  IndexingStatusRequest,
  SourceIndexingStatuses,
  StatusResponse,
} from '../../types.js';
import { checkInt } from '../arguments.js';
import type { CallContext } from '../call.js';
import { eachItem } from '../paging.js';

const pathOf = (ccPairId: number) => ({
  path: { cc_pair_id: checkInt('ccPairId', ccPairId) },
});

/** GET …/index-attempts, page after page, newest first. */
export function attempts(
  ctx: CallContext,
  ccPairId: number,
  opts: PageOptions = {},
): AsyncIterable<IndexAttempt> {
  const { pageSize = 100, ...request } = opts;
  const route = '/manage/admin/cc-pair/{cc_pair_id}/index-attempts';
  return eachItem((pageNum) =>
    ctx.call(
      (fetch) =>
        ctx.api.GET(route, {
          params: { ...pathOf(ccPairId), query: { page_num: pageNum, page_size: pageSize } },
          fetch,
        }),
      { ...request },
    ),
  );
}

/** GET …/errors, page after page, newest first. */
export function errors(
  ctx: CallContext,
  ccPairId: number,
  opts: ErrorListOptions = {},
): AsyncIterable<IndexingError> {
  const { pageSize = 100, includeResolved = false, ...request } = opts;
  const route = '/manage/admin/cc-pair/{cc_pair_id}/errors';
  return eachItem((pageNum) =>
    ctx.call(
      (fetch) =>
        ctx.api.GET(route, {
          params: {
            ...pathOf(ccPairId),
            query: { page_num: pageNum, page_size: pageSize, include_resolved: includeResolved },
          },
          fetch,
        }),
      { ...request },
    ),
  );
}

/**
 * POST /manage/admin/connector/run-once: the connector's pairs (or those of `credentialIds`)
 * index now. `data` is how many attempts were triggered: a pair already running is skipped.
 */
export function runConnectorOnce(
  ctx: CallContext,
  connectorId: number,
  opts: RunOptions = {},
): Promise<StatusResponse> {
  const { fromBeginning = false, credentialIds, ...request } = opts;
  const path = '/manage/admin/connector/run-once';
  const body = {
    connector_id: checkInt('connectorId', connectorId),
    credential_ids: credentialIds === undefined ? null : [...credentialIds],
    from_beginning: fromBeginning,
  };
  return ctx.call((fetch) => ctx.api.POST(path, { body, fetch }), { ...request });
}

/** POST …/prune: the server lists the source and removes documents no longer there. */
export function prune(
  ctx: CallContext,
  ccPairId: number,
  opts?: RequestOptions,
): Promise<StatusResponse> {
  return ctx.call(
    (fetch) =>
      ctx.api.POST('/manage/admin/cc-pair/{cc_pair_id}/prune', {
        params: pathOf(ccPairId),
        fetch,
      }),
    opts,
  );
}

/** GET …/last_pruned: when a prune last finished, or null. */
export async function lastPruned(
  ctx: CallContext,
  ccPairId: number,
  opts?: RequestOptions,
): Promise<string | null> {
  const answer = await ctx.call(
    (fetch) =>
      ctx.api.GET('/manage/admin/cc-pair/{cc_pair_id}/last_pruned', {
        params: pathOf(ccPairId),
        fetch,
      }),
    opts,
  );
  return answer ?? null;
}

/** POST /manage/admin/connector/indexing-status: pairs by source, filtered and paged. */
export function indexingStatus(
  ctx: CallContext,
  filters: IndexingStatusRequest = {},
  opts?: RequestOptions,
): Promise<SourceIndexingStatuses[]> {
  const path = '/manage/admin/connector/indexing-status';
  return ctx.call((fetch) => ctx.api.POST(path, { body: filters, fetch }), opts);
}
