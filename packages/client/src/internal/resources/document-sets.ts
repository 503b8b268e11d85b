/**
 * `kis.documentSets`: named sets of pairs that searches narrow to (by name). Each change reaches
 * the documents through the server's sync; until it is done (`is_up_to_date`) the server refuses
 * the next change (`SyncInProgressError`), so `waitUntilSynced` sits between two changes
 * (deployed servers; `docs/deployed-servers.md`, "Document sets").
 */

import { KisError } from '../../errors.js';
import type { KisClient } from '../../kis-client.js';
import type { RequestOptions } from '../../request-options.js';
import type { DocumentSetListOptions, SyncWaitOptions } from '../../search-options.js';
import type {
  DocumentSetCreationRequest,
  DocumentSetSummary,
  DocumentSetUpdateRequest,
} from '../../types.js';
import { checkInt } from '../arguments.js';
import type { CallContext } from '../call.js';
import { pollUntil } from '../poll.js';

/** Said after a create whose answer was lost: the set may exist (names are unique). */
const CREATE_HINT =
  'The set may have been created: list the document sets before creating it again.';

const ADMIN = '/manage/admin/document-set';
const LIST = '/manage/document-set';

export function listDocumentSets(
  ctx: CallContext,
  opts: DocumentSetListOptions = {},
): Promise<DocumentSetSummary[]> {
  const { editable = false, ...request } = opts;
  return ctx.call(
    (fetch) =>
      ctx.api.GET(LIST, {
        params: { query: { get_editable: editable } },
        fetch,
      }),
    { ...request },
  );
}

/** PATCH /manage/admin/document-set: a full replace (`null` answer). */
export async function updateDocumentSet(
  ctx: CallContext,
  body: DocumentSetUpdateRequest,
  opts?: RequestOptions,
): Promise<void> {
  await ctx.call((fetch) => ctx.api.PATCH(ADMIN, { body, fetch }), opts);
}

/** The set's summary as listed to an editor, or undefined once it is gone. */
async function findSet(ctx: CallContext, id: number, opts: RequestOptions) {
  const sets = await listDocumentSets(ctx, { ...opts, editable: false });
  return sets.find((s) => s.id === id);
}

/** `kis.documentSets`. */
export function documentSetsResource(ctx: CallContext): KisClient['documentSets'] {
  return {
    list: async (opts) => listDocumentSets(ctx, opts),
    create: async (body: DocumentSetCreationRequest, opts) =>
      ctx.call(
        (fetch) =>
          ctx.api.POST(ADMIN, {
            body,
            fetch,
          }),
        { ...opts, retryMode: 'unsafe', unsafeHint: CREATE_HINT },
        CREATE_HINT,
      ),
    update: async (body, opts) => updateDocumentSet(ctx, body, opts),
    async delete(id, opts) {
      const path = '/manage/admin/document-set/{document_set_id}';
      await ctx.call(
        (fetch) =>
          ctx.api.DELETE(path, {
            params: { path: { document_set_id: checkInt('documentSetId', id) } },
            fetch,
          }),
        opts,
      );
    },
    async waitUntilSynced(id, opts: SyncWaitOptions = {}) {
      const { waitMs = 600_000, ...request } = opts;
      const set = await pollUntil(
        () => findSet(ctx, checkInt('documentSetId', id), request),
        (s) => s === undefined || s.is_up_to_date,
        `document set ${id} syncing`,
        waitMs,
        request.signal,
      );
      if (set === undefined) throw new KisError(`document set ${id} is not listed to this key`);
      return set;
    },
    async waitUntilGone(id, opts: SyncWaitOptions = {}) {
      const { waitMs = 600_000, ...request } = opts;
      await pollUntil(
        () => findSet(ctx, checkInt('documentSetId', id), request),
        (s) => s === undefined,
        `document set ${id} deletion`,
        waitMs,
        request.signal,
      );
    },
  };
}
