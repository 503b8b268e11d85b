/** `kis docs` (alias `doc`): `list`, `delete` and `status` (status.ts). */
import type { IngestedDocumentSummary } from '@kis/client';
import { NotFoundError } from '@kis/client';
import { Command } from 'commander';
import type { Act, CommandEnv } from '../../action.js';
import { intArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { describeFailure } from '../../failure.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { checkPair } from '../../pair-check.js';
import { storedIdFor } from '../../stored-ids.js';
import { runDocsStatus } from './status.js';

export interface DocsListOptions {
  ccPair?: number;
}

export function docsCommand({ act }: CommandEnv): Command {
  return new Command('docs')
    .alias('doc')
    .description('list and delete ingested documents, and check whether they are indexed')
    .addCommand(listCommand(act))
    .addCommand(deleteCommand(act))
    .addCommand(statusCommand(act));
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

function statusCommand(act: Act): Command {
  return new Command('status')
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

/** `kis docs list [--cc-pair ID]`. */
export async function runDocsList(ctx: Context, options: DocsListOptions): Promise<ExitCodeValue> {
  const client = await ctx.client();
  const { baseUrl } = await ctx.connection();
  await checkPair(client, options.ccPair, baseUrl, 'docs list');
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
