/** `kis queue status [RUN]`: the queue's jobs, limits and workers, and each run's counts. */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { intArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { loadQueue } from '../../optional-queue.js';
import {
  addQueueTarget,
  type QueueTargetFlags,
  queueCall,
  queueTarget,
  shownQueueUrl,
} from '../../queue-target.js';
import { statusJson, statusText } from './format.js';

interface StatusFlags extends QueueTargetFlags {
  failures: number;
}

export function statusCommand({ act, command }: CommandEnv): Command {
  return addQueueTarget(command('status'))
    .description(
      "the queue's jobs by state, its limits and workers, and per run: documents stored, failed and pending, throughput, first failures",
    )
    .argument('[run]', 'one run (default: every run in the queue)')
    .addHelpText(
      'after',
      EXAMPLES([
        'kis queue status --queue redis://127.0.0.1:6379/0',
        'kis --json queue status r20250102T030405-1a2b3c --failures 20',
      ]),
    )
    .option('--failures <n>', 'failed documents shown per run', intArg(0, 1000), 5)
    .action(
      act((ctx, run: string | undefined, options: StatusFlags) => runStatus(ctx, run, options)),
    );
}

async function runStatus(
  ctx: Context,
  runId: string | undefined,
  options: StatusFlags,
): Promise<ExitCodeValue> {
  const q = await loadQueue('kis queue status');
  const target = queueTarget(ctx, options, { fromEnv: true });
  const status = await queueCall(() =>
    q.queueStatus({ ...target, runId, failures: options.failures }),
  );
  if (runId !== undefined && status.runs.length === 0) {
    throw new UsageError(`run ${runId} is not in queue ${status.queue}`);
  }
  ctx.out.result(statusJson(status), statusText(status, shownQueueUrl(target.connection)));
  return ExitCode.Ok;
}
