/**
 * `kis queue dashboard`: bull-board for the queue on a loopback address (it can retry and remove
 * jobs and has no login), until Ctrl-C.
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { intArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { type InterruptSource, nextInterrupt } from '../../interrupts.js';
import { loadQueue } from '../../optional-queue.js';
import {
  addQueueTarget,
  type QueueTargetFlags,
  queueCall,
  queueTarget,
} from '../../queue-target.js';

interface DashboardFlags extends QueueTargetFlags {
  port: number;
  host: string;
  readOnly?: boolean;
}

export function dashboardCommand({ act, interrupts, command }: CommandEnv): Command {
  return addQueueTarget(command('dashboard'))
    .description('serve bull-board for the queue on loopback, for a browser on this machine')
    .addHelpText(
      'after',
      EXAMPLES(['kis queue dashboard', 'kis queue dashboard --port 0 --read-only']),
    )
    .option('--port <port>', 'TCP port (0: a free one)', intArg(0, 65_535), 3000)
    .option('--host <host>', 'loopback address: 127.0.0.1, ::1 or localhost', '127.0.0.1')
    .option('--read-only', 'without the retry and remove buttons')
    .action(act((ctx, options: DashboardFlags) => dashboard(ctx, options, interrupts)));
}

async function dashboard(
  ctx: Context,
  options: DashboardFlags,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const q = await loadQueue('kis queue dashboard');
  const target = queueTarget(ctx, options, { fromEnv: true });
  // proves Redis answers: the board would show an empty page otherwise
  await queueCall(() => q.setQueueLimits(target));
  let board: Awaited<ReturnType<typeof q.serveDashboard>>;
  try {
    board = await queueCall(() =>
      q.serveDashboard({
        ...target,
        port: options.port,
        host: options.host,
        readOnly: options.readOnly === true,
      }),
    );
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EADDRINUSE') {
      throw new UsageError(
        `--port: port ${options.port} on ${options.host} is already in use; pick another (0 picks a free one)`,
      );
    }
    throw error;
  }
  const stopped = nextInterrupt(interrupts);
  ctx.out.result({ dashboard: { url: board.url, port: board.port } }, [
    `kis queue dashboard at ${board.url}`,
    'Press Ctrl-C to stop.',
  ]);
  await stopped;
  await board.close();
  ctx.out.info('kis queue dashboard stopped');
  return ExitCode.Ok;
}
