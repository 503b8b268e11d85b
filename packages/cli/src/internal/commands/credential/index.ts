/** `kis credential` (alias `credentials`): `list`, `create` and `set-private-key`, a module each. */
import { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { createCommand } from './create.js';
import { listCommand } from './list.js';
import { setPrivateKeyCommand } from './set-private-key.js';

export function credentialCommand(env: CommandEnv): Command {
  return new Command('credential')
    .alias('credentials')
    .description('list and create credentials, replace a private key')
    .addCommand(listCommand(env))
    .addCommand(createCommand(env))
    .addCommand(setPrivateKeyCommand(env));
}
