/**
 * `kis credential` (alias `credentials`): `list`, `create` and `set-private-key`, a module each,
 * loaded when the command line chooses it.
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { addCommands, type CommandEntry } from '../../command-table.js';

const SUBCOMMANDS: readonly CommandEntry[] = [
  { name: 'list', load: async () => (await import('./list.js')).listCommand },
  { name: 'create', load: async () => (await import('./create.js')).createCommand },
  {
    name: 'set-private-key',
    load: async () => (await import('./set-private-key.js')).setPrivateKeyCommand,
  },
];

export async function credentialCommand(
  env: CommandEnv,
  argv?: readonly string[],
): Promise<Command> {
  const credential = env
    .command('credential')
    .alias('credentials')
    .description('list and create credentials, replace a private key');
  await addCommands(credential, SUBCOMMANDS, env, argv);
  return credential;
}
