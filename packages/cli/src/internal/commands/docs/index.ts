/**
 * `kis docs` (alias `doc`): `list`, `delete` and `status`, a module each, loaded when the command
 * line chooses it.
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { addCommands, type CommandEntry } from '../../command-table.js';

const SUBCOMMANDS: readonly CommandEntry[] = [
  { name: 'list', load: async () => (await import('./list.js')).listCommand },
  { name: 'delete', load: async () => (await import('./delete.js')).deleteCommand },
  { name: 'status', load: async () => (await import('./status.js')).statusCommand },
];

export async function docsCommand(env: CommandEnv, argv?: readonly string[]): Promise<Command> {
  const docs = env
    .command('docs')
    .alias('doc')
    .description('list and delete ingested documents, and check whether they are indexed');
  await addCommands(docs, SUBCOMMANDS, env, argv);
  return docs;
}
