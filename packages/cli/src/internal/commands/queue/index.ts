/**
 * `kis queue status|failed|retry|clean|limits|dashboard`: operating a queue of queue mode
 * (`@kis/queue`): the runs and their counts, failed documents with the server's reasons, retrying
 * them, removing finished runs, the queue's limits, and bull-board on loopback.
 */
import { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { EXAMPLES } from '../../help-text.js';
import { cleanCommand } from './clean.js';
import { dashboardCommand } from './dashboard.js';
import { failedCommand } from './failed.js';
import { limitsCommand } from './limits.js';
import { retryCommand } from './retry.js';
import { statusCommand } from './status.js';

export function queueCommand(env: CommandEnv): Command {
  return new Command('queue')
    .description(
      'operate a queue of queue mode: status, failed documents, retry, clean, limits, dashboard',
    )
    .addHelpText(
      'after',
      EXAMPLES([
        'export KIS_QUEUE=redis://127.0.0.1:6379/0',
        'kis queue status',
        'kis queue failed r20250102T030405-1a2b3c',
        'kis queue retry r20250102T030405-1a2b3c',
        'kis queue clean',
        'kis queue limits --max-in-flight 16 --rate 50/s',
        'kis queue dashboard --port 3000',
      ]),
    )
    .addCommand(statusCommand(env))
    .addCommand(failedCommand(env))
    .addCommand(retryCommand(env))
    .addCommand(cleanCommand(env))
    .addCommand(limitsCommand(env))
    .addCommand(dashboardCommand(env));
}
