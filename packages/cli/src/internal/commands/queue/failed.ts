/** `kis queue failed [RUN]`: the documents that failed, with the server's reasons. */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { intArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { loadQueue } from '../../optional-queue.js';
import {
  addQueueTarget,
  type QueueTargetFlags,
  queueCall,
  queueTarget,
} from '../../queue-target.js';
import { failureJson } from './format.js';

interface FailedFlags extends QueueTargetFlags {
  limit?: number;
}

export function failedCommand({ act, command }: CommandEnv): Command {
  return addQueueTarget(command('failed'))
    .description(
      "the documents that failed, with the server's reasons (a JSON line each with --json)",
    )
    .argument('[run]', 'one run (default: every run in the queue)')
    .addHelpText(
      'after',
      EXAMPLES(['kis queue failed', 'kis --json queue failed r20250102T030405-1a2b3c --limit 100']),
    )
    .option('--limit <n>', 'list at most N documents (default: all)', intArg(1))
    .action(
      act((ctx, run: string | undefined, options: FailedFlags) => listFailed(ctx, run, options)),
    );
}

async function listFailed(
  ctx: Context,
  runId: string | undefined,
  options: FailedFlags,
): Promise<ExitCodeValue> {
  const { out } = ctx;
  const q = await loadQueue('kis queue failed');
  const target = queueTarget(ctx, options, { fromEnv: true });
  const failed = await queueCall(() => q.listFailed({ ...target, runId, limit: options.limit }));
  out.batch(() => {
    for (const f of failed) {
      out.result(failureJson(f), `${f.runId}  ${f.ref ?? f.documentId ?? f.ordinal}: ${f.reason}`);
    }
  });
  if (failed.length === 0) out.info('no failed documents');
  return ExitCode.Ok;
}
