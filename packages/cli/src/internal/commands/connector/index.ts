/**
 * `kis connector` (alias `connectors`): the set-up of connectors (`create`, `fields`,
 * `associate`), then the operation of their pairs (`list`, `status`, `run`, `pause`, `resume`,
 * `prune`, `delete`); one module per sub-command.
 */
import { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { associateCommand } from './associate.js';
import { createCommand } from './create.js';
import { deleteCommand } from './delete.js';
import { fieldsCommand } from './fields.js';
import { listCommand } from './list.js';
import { pauseCommand } from './pause.js';
import { pruneCommand } from './prune.js';
import { resumeCommand } from './resume.js';
import { runCommand } from './run.js';
import { statusCommand } from './status.js';

export function connectorCommand(env: CommandEnv): Command {
  return new Command('connector')
    .alias('connectors')
    .description(
      'create connectors (with their credential association); list, watch, run, pause, resume, prune and delete their pairs',
    )
    .addCommand(createCommand(env))
    .addCommand(fieldsCommand(env))
    .addCommand(associateCommand(env))
    .addCommand(listCommand(env))
    .addCommand(statusCommand(env))
    .addCommand(runCommand(env))
    .addCommand(pauseCommand(env))
    .addCommand(resumeCommand(env))
    .addCommand(pruneCommand(env))
    .addCommand(deleteCommand(env));
}
