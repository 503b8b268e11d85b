/**
 * `kis group` (alias `groups`): user groups (enterprise edition), whose members see the documents
 * of the private pairs the group holds: `list`, `create`, `update`, `delete`, `add-users`,
 * `add-pairs` and `docsets`; a module per sub-command, loaded when the command line chooses it.
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { addCommands, type CommandEntry } from '../../command-table.js';

const SUBCOMMANDS: readonly CommandEntry[] = [
  { name: 'list', load: async () => (await import('./list.js')).listCommand },
  { name: 'create', load: async () => (await import('./create.js')).createCommand },
  { name: 'update', load: async () => (await import('./update.js')).updateCommand },
  { name: 'delete', load: async () => (await import('./delete.js')).deleteCommand },
  { name: 'add-users', load: async () => (await import('./add-users.js')).addUsersCommand },
  { name: 'add-pairs', load: async () => (await import('./add-pairs.js')).addPairsCommand },
  { name: 'docsets', load: async () => (await import('./docsets.js')).docsetsCommand },
];

export async function groupCommand(env: CommandEnv, argv?: readonly string[]): Promise<Command> {
  const group = env
    .command('group')
    .alias('groups')
    .description(
      'user groups (enterprise edition: whose members see private pairs): list, create, update, delete, add users and pairs, share document sets',
    );
  await addCommands(group, SUBCOMMANDS, env, argv);
  return group;
}
