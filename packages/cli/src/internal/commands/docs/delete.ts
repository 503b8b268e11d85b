/** `kis docs delete ID…`: ingested documents deleted by id; one that fails does not stop the rest. */
import { NotFoundError } from '@kis/client';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { describeFailure } from '../../failure.js';
import { EXAMPLES } from '../../help-text.js';
import { storedIdFor } from '../../stored-ids.js';

export function deleteCommand({ act, command }: CommandEnv): Command {
  return command('delete')
    .description('delete ingested documents by id (as `kis docs list` prints them)')
    .argument('<ids...>', 'document ids')
    .addHelpText(
      'after',
      EXAMPLES(['kis docs delete docs%2Fintro.md', 'kis docs delete docs/intro.md old.txt']),
    )
    .action(act((ctx, ids: string[]) => runDocsDelete(ctx, ids)));
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
