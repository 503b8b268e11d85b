/**
 * `kis queue retry [RUN]`: the failed jobs run again (what is stored is skipped, the failed
 * documents are sent again).
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
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

export function retryCommand({ act, command }: CommandEnv): Command {
  return addQueueTarget(command('retry'))
    .description('put the failed jobs back in the queue: their failed documents are sent again')
    .argument('[run]', 'one run (default: every run in the queue)')
    .addHelpText('after', EXAMPLES(['kis queue retry', 'kis queue retry r20250102T030405-1a2b3c']))
    .action(
      act((ctx, run: string | undefined, options: QueueTargetFlags) => retry(ctx, run, options)),
    );
}

async function retry(
  ctx: Context,
  runId: string | undefined,
  options: QueueTargetFlags,
): Promise<ExitCodeValue> {
  const q = await loadQueue('kis queue retry');
  const target = queueTarget(ctx, options, { fromEnv: true });
  const result = await queueCall(() => q.retryFailed({ ...target, runId }));
  ctx.out.result(
    { retried: { jobs: result.jobs, documents: result.documents } },
    result.jobs === 0
      ? 'nothing to retry: no failed job'
      : `retrying ${result.documents} failed document(s) in ${result.jobs} job(s)`,
  );
  return ExitCode.Ok;
}
