import type { IngestedDocumentSummary } from '@kis/client';
import { NotFoundError } from '@kis/client';
import { normalizeDocumentId } from '@kis/rules';
import type { Context } from '../context.js';
import { ExitCode, type ExitCodeValue } from '../errors.js';
import { describeFailure } from '../failure.js';

/** `kis docs list [--cc-pair ID]`. */
export async function docsListCommand(
  ctx: Context,
  options: { ccPair?: number },
): Promise<ExitCodeValue> {
  const client = await ctx.client();
  const docs: IngestedDocumentSummary[] =
    options.ccPair === undefined
      ? await client.ingestion.list()
      : await client.ingestion.listConnectorDocuments(options.ccPair);
  const { out } = ctx;
  for (const doc of docs) {
    const record = doc as unknown as Record<string, unknown>;
    const link = typeof record.link === 'string' && record.link ? `\t${record.link}` : '';
    out.result(doc, `${String(record.document_id)}\t${String(record.semantic_id ?? '')}${link}`);
  }
  out.result({ summary: { count: docs.length } });
  if (!out.mode.json && !out.mode.quiet) {
    const where = options.ccPair === undefined ? 'ingested' : `in cc pair ${options.ccPair}`;
    out.info(`${docs.length} document(s) ${where}`);
  }
  return ExitCode.Ok;
}

/**
 * The stored form of an id typed by the user: ids as listed (already percent-encoded) are kept;
 * anything with characters a stored id cannot hold (a path like `docs/a.md`) is encoded like the
 * server does (the rule book's `normalizeDocumentId`). An id is taken as listed when, its `%`
 * escapes aside, it holds only characters that encoding leaves alone.
 */
export function storedIdFor(id: string): string {
  const unescaped = id.replaceAll('%', '');
  return normalizeDocumentId(unescaped) === unescaped ? id : normalizeDocumentId(id);
}

/** `kis docs delete ID…`. */
export async function docsDeleteCommand(ctx: Context, ids: string[]): Promise<ExitCodeValue> {
  const client = await ctx.client();
  const { out } = ctx;
  let deleted = 0;
  let failed = 0;
  for (const raw of ids) {
    const id = storedIdFor(raw);
    try {
      await client.ingestion.delete(id);
      deleted++;
      out.result({ document_id: id, deleted: true }, `deleted ${id}`);
    } catch (error) {
      const failure = describeFailure(error, client.baseUrl);
      if (failure.fatal) throw error;
      failed++;
      const reason = NotFoundError.isInstance(error)
        ? `no ingested document with id "${id}"`
        : failure.message;
      out.result({ document_id: id, deleted: false, error: reason });
      if (!out.mode.json) out.error(`${id}: ${reason}`);
    }
  }
  out.result({ summary: { deleted, failed } });
  return failed > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
}
