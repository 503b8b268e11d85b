/** `kis docs` (alias `doc`): `list` and `delete`. */
import type { IngestedDocumentSummary } from '@kis/client';
import { NotFoundError } from '@kis/client';
import { normalizeDocumentId } from '@kis/rules';
import { Command } from 'commander';
import type { Act, CommandEnv } from '../action.js';
import { intArg } from '../arg-parsers.js';
import type { Context } from '../context.js';
import { ExitCode, type ExitCodeValue } from '../errors.js';
import { describeFailure } from '../failure.js';
import { EXAMPLES } from '../help-text.js';

export interface DocsListOptions {
  ccPair?: number;
}

export function docsCommand({ act }: CommandEnv): Command {
  return new Command('docs')
    .alias('doc')
    .description('list and delete ingested documents')
    .addCommand(listCommand(act))
    .addCommand(deleteCommand(act));
}

function listCommand(act: Act): Command {
  return new Command('list')
    .description('list ingested documents (all, or those of one cc pair)')
    .option('--cc-pair <id>', "only this cc pair's documents", intArg(0))
    .addHelpText('after', EXAMPLES(['kis docs list', 'kis --json docs list --cc-pair 2']))
    .action(act((ctx, options: DocsListOptions) => runDocsList(ctx, options)));
}

function deleteCommand(act: Act): Command {
  return new Command('delete')
    .description('delete ingested documents by id (as `kis docs list` prints them)')
    .argument('<ids...>', 'document ids')
    .addHelpText(
      'after',
      EXAMPLES(['kis docs delete docs%2Fintro.md', 'kis docs delete docs/intro.md old.txt']),
    )
    .action(act((ctx, ids: string[]) => runDocsDelete(ctx, ids)));
}

/** `kis docs list [--cc-pair ID]`. */
export async function runDocsList(ctx: Context, options: DocsListOptions): Promise<ExitCodeValue> {
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
export async function runDocsDelete(ctx: Context, ids: string[]): Promise<ExitCodeValue> {
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
