/** `kis docs list [--cc-pair ID]`: the ingested documents, all or those of one pair. */
import type { IngestedDocumentSummary } from '@kis/client';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { intArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { checkPair } from '../../pair-check.js';

export interface DocsListOptions {
  ccPair?: number;
}

export function listCommand({ act, command }: CommandEnv): Command {
  return command('list')
    .description('list ingested documents (all, or those of one cc pair)')
    .option('--cc-pair <id>', "only this cc pair's documents", intArg(0))
    .addHelpText('after', EXAMPLES(['kis docs list', 'kis --json docs list --cc-pair 2']))
    .action(act((ctx, options: DocsListOptions) => runDocsList(ctx, options)));
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
