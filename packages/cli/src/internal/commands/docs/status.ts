/**
 * `kis docs status ID…`: whether each document is in the index yet, with its chunks and tokens
 * (`kis.documents.sizeInfo`, which answers 404 until the document's chunks are written).
 */
import { APIError, type DocumentSizeInfo, NotFoundError } from '@kis/client';
import { isRouteNotFound } from '@kis/rules';
import type { Context } from '../../context.js';
import { CliError, ExitCode, type ExitCodeValue } from '../../errors.js';
import { pairCall } from '../../pair-errors.js';
import { storedIdFor } from '../../stored-ids.js';

/** A document's size in the index, or undefined while it is not indexed (or not visible). */
async function sizeOf(ctx: Context, id: string): Promise<DocumentSizeInfo | undefined> {
  const client = await ctx.client();
  const { baseUrl } = await ctx.connection();
  const call = { operationId: 'getDocumentSizeInfo', doing: `checking document ${id}`, baseUrl };
  try {
    return await pairCall(call, () => client.documents.sizeInfo(id));
  } catch (error) {
    if (APIError.isInstance(error) && isRouteNotFound(error.status, error.body)) {
      throw new CliError(
        `${baseUrl} has no GET /document/document-size-info (a server that follows the seed): it cannot say whether a document is indexed`,
        ExitCode.Fatal,
      );
    }
    if (NotFoundError.isInstance(error)) return undefined;
    if (APIError.isInstance(error) && error.status === 501) {
      throw new CliError(
        `${baseUrl} cannot say whether a document is indexed: it runs without a vector database (501)`,
        ExitCode.Fatal,
      );
    }
    throw error;
  }
}

/** `kis docs status ID…`: exit 0 when every document is indexed, 1 when one is not (yet). */
export async function runDocsStatus(ctx: Context, ids: string[]): Promise<ExitCodeValue> {
  const { out } = ctx;
  let indexed = 0;
  let waiting = 0;
  for (const raw of ids) {
    const id = storedIdFor(raw);
    const size = await sizeOf(ctx, id);
    if (size === undefined) {
      waiting++;
      out.result(
        { document_id: id, indexed: false },
        `${id}  ${out.out.yellow('not indexed')} (not yet, or not visible to this key)`,
      );
    } else {
      indexed++;
      out.result(
        { document_id: id, indexed: true, chunks: size.num_chunks, tokens: size.num_tokens },
        `${id}  ${out.out.green('indexed')}  ${size.num_chunks} chunk(s), ${size.num_tokens} token(s)`,
      );
    }
  }
  out.result({ summary: { indexed, not_indexed: waiting } });
  return waiting > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
}
