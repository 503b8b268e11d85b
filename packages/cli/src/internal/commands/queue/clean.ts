/** `kis queue clean [RUN]`: removes finished runs, their jobs and their state from Redis. */
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

interface CleanFlags extends QueueTargetFlags {
  force?: boolean;
}

export function cleanCommand({ act, command }: CommandEnv): Command {
  return addQueueTarget(command('clean'))
    .description('remove finished runs (every document stored or failed) with their jobs and state')
    .argument('[run]', 'one run (default: every finished run)')
    .addHelpText(
      'after',
      EXAMPLES(['kis queue clean', 'kis queue clean r20250102T030405-1a2b3c --force']),
    )
    .option('--force', 'remove unfinished runs too (jobs that a worker holds stay until it ends)')
    .action(act((ctx, run: string | undefined, options: CleanFlags) => clean(ctx, run, options)));
}

async function clean(
  ctx: Context,
  runId: string | undefined,
  options: CleanFlags,
): Promise<ExitCodeValue> {
  const q = await loadQueue('kis queue clean');
  const target = queueTarget(ctx, options, { fromEnv: true });
  const result = await queueCall(() =>
    q.cleanRun({ ...target, runId, force: options.force === true }),
  );
  ctx.out.result(
    { cleaned: { runs: result.runs, jobs: result.jobs, unfinished: result.unfinished } },
    [
      result.runs.length === 0
        ? 'no finished run to remove'
        : `removed ${result.runs.length} run(s) and ${result.jobs} job(s): ${result.runs.join(', ')}`,
      ...(result.unfinished.length > 0
        ? [
            `left ${result.unfinished.length} unfinished run(s) (--force removes them): ${result.unfinished.join(', ')}`,
          ]
        : []),
    ],
  );
  return ExitCode.Ok;
}
