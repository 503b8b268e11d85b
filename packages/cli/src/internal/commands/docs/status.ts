/**
 * `kis docs status ID…`: whether each document is in the index yet, with its chunks and tokens
 * (`kis.documents.sizeInfo`, which answers 404 until the document's chunks are written).
 */
import { APIError, type DocumentSizeInfo, NotFoundError } from '@kis/client';
import { isRouteNotFound } from '@kis/rules';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { pairCall } from '../../pair-errors.js';
import { storedIdFor } from '../../stored-ids.js';

export function statusCommand({ act, command }: CommandEnv): Command {
  return command('status')
    .description(
      'whether documents are in the index yet, with their chunks and tokens; exit 1 when one is not (yet)',
    )
    .argument('<ids...>', 'document ids, as ingestion answered them or `kis docs list` prints them')
    .addHelpText(
      'after',
      EXAMPLES([
        'kis docs status docs%2Fintro.md',
        'kis --json docs status docs/intro.md docs/setup.md',
        'until kis -q docs status docs/intro.md; do sleep 5; done',
      ]) +
        `
${wrap(
  'A document is indexed once the server has written its chunks, some time after ingestion answered: until then it is "not indexed". Servers also say so for a document the key may not see. A path is encoded as servers store ids (docs/intro.md is docs%2Fintro.md).',
)}
`,
    )
    .action(act((ctx, ids: string[]) => runDocsStatus(ctx, ids)));
}

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
