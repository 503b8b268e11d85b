/**
 * `kis queue status|failed|retry|clean|limits|dashboard`: operating a queue of queue mode
 * (`@kis/queue`): the runs and their counts, failed documents with the server's reasons, retrying
 * them, removing finished runs, the queue's limits, and bull-board on loopback; a module per
 * sub-command, loaded when the command line chooses it.
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { addCommands, type CommandEntry } from '../../command-table.js';
import { EXAMPLES } from '../../help-text.js';

const SUBCOMMANDS: readonly CommandEntry[] = [
  { name: 'status', load: async () => (await import('./status.js')).statusCommand },
  { name: 'failed', load: async () => (await import('./failed.js')).failedCommand },
  { name: 'retry', load: async () => (await import('./retry.js')).retryCommand },
  { name: 'clean', load: async () => (await import('./clean.js')).cleanCommand },
  { name: 'limits', load: async () => (await import('./limits.js')).limitsCommand },
  { name: 'dashboard', load: async () => (await import('./dashboard.js')).dashboardCommand },
];

export async function queueCommand(env: CommandEnv, argv?: readonly string[]): Promise<Command> {
  const queue = env
    .command('queue')
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
    );
  await addCommands(queue, SUBCOMMANDS, env, argv);
  return queue;
}
