/** `kis docs` (alias `doc`): `list`, `delete` and `status`, a module each. */
import { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { deleteCommand } from './delete.js';
import { listCommand } from './list.js';
import { statusCommand } from './status.js';

export function docsCommand(env: CommandEnv): Command {
  return new Command('docs')
    .alias('doc')
    .description('list and delete ingested documents, and check whether they are indexed')
    .addCommand(listCommand(env))
    .addCommand(deleteCommand(env))
    .addCommand(statusCommand(env));
}
