/** `kis queue limits`: shows, sets or removes the queue's limits, which hold across all workers. */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { loadQueue } from '../../optional-queue.js';
import { queueLimits } from '../../queue-mode/enqueue.js';
import { limitArg, rateArg } from '../../queue-mode/options.js';
import {
  addQueueTarget,
  type QueueTargetFlags,
  queueCall,
  queueTarget,
} from '../../queue-target.js';
import { limitsText } from './format.js';

interface LimitsFlags extends QueueTargetFlags {
  maxInFlight?: number | 'none';
  rate?: string;
}

export function limitsCommand({ act, command }: CommandEnv): Command {
  return addQueueTarget(command('limits'))
    .description(
      "show the queue's limits, or set them for all workers: requests in flight and a rate",
    )
    .option(
      '--max-in-flight <n>',
      'the most requests in flight from all workers (none removes it)',
      limitArg,
    )
    .option(
      '--rate <rate>',
      'the most documents sent per second by all workers, e.g. 50/s or 3000/min (none removes it); set it before enqueueing',
      rateArg,
    )
    .addHelpText(
      'after',
      EXAMPLES([
        'kis queue limits',
        'kis queue limits --max-in-flight 16 --rate 50/s',
        'kis queue limits --rate none',
      ]),
    )
    .action(act((ctx, options: LimitsFlags) => limits(ctx, options)));
}

async function limits(ctx: Context, options: LimitsFlags): Promise<ExitCodeValue> {
  const q = await loadQueue('kis queue limits');
  const target = queueTarget(ctx, options, { fromEnv: true });
  const now = await queueCall(() => q.setQueueLimits({ ...target, ...queueLimits(options) }));
  ctx.out.result(
    { limits: { max_in_flight: now.maxInFlight, rate_per_sec: now.ratePerSec } },
    `limits: ${limitsText(now)}`,
  );
  return ExitCode.Ok;
}
