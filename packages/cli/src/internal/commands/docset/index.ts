/**
 * `kis docset` (alias `docsets`): document sets, which searches and assistants narrow to by name:
 * `list`, `create`, `update`, `delete`, and `add`/`remove` of pairs; a module per sub-command,
 * loaded when the command line chooses it.
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { addCommands, type CommandEntry } from '../../command-table.js';

const SUBCOMMANDS: readonly CommandEntry[] = [
  { name: 'list', load: async () => (await import('./list.js')).listCommand },
  { name: 'create', load: async () => (await import('./create.js')).createCommand },
  { name: 'update', load: async () => (await import('./update.js')).updateCommand },
  { name: 'delete', load: async () => (await import('./delete.js')).deleteCommand },
  { name: 'add', load: async () => (await import('./add.js')).addCommand },
  { name: 'remove', load: async () => (await import('./remove.js')).removeCommand },
];

export async function docsetCommand(env: CommandEnv, argv?: readonly string[]): Promise<Command> {
  const docset = env
    .command('docset')
    .alias('docsets')
    .description(
      'document sets (groups of pairs that searches and assistants narrow to): list, create, update, delete, add and remove pairs',
    );
  await addCommands(docset, SUBCOMMANDS, env, argv);
  return docset;
}
