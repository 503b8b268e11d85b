/**
 * `kis connector` (alias `connectors`): the set-up of connectors (`create`, `fields`,
 * `associate`), then the operation of their pairs (`list`, `status`, `run`, `pause`, `resume`,
 * `prune`, `delete`); a module per sub-command, loaded when the command line chooses it.
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { addCommands, type CommandEntry } from '../../command-table.js';

const SUBCOMMANDS: readonly CommandEntry[] = [
  { name: 'create', load: async () => (await import('./create.js')).createCommand },
  { name: 'fields', load: async () => (await import('./fields.js')).fieldsCommand },
  { name: 'associate', load: async () => (await import('./associate.js')).associateCommand },
  { name: 'list', load: async () => (await import('./list.js')).listCommand },
  { name: 'status', load: async () => (await import('./status.js')).statusCommand },
  { name: 'run', load: async () => (await import('./run.js')).runCommand },
  { name: 'pause', load: async () => (await import('./pause.js')).pauseCommand },
  { name: 'resume', load: async () => (await import('./resume.js')).resumeCommand },
  { name: 'prune', load: async () => (await import('./prune.js')).pruneCommand },
  { name: 'delete', load: async () => (await import('./delete.js')).deleteCommand },
];

export async function connectorCommand(
  env: CommandEnv,
  argv?: readonly string[],
): Promise<Command> {
  const connector = env
    .command('connector')
    .alias('connectors')
    .description(
      'create connectors (with their credential association); list, watch, run, pause, resume, prune and delete their pairs',
    );
  await addCommands(connector, SUBCOMMANDS, env, argv);
  return connector;
}
