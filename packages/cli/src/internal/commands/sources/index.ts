/** `kis sources`: the DocumentSource values, read from the spec. */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { documentSources } from '../../enums.js';
import { ExitCode } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';

export function sourcesCommand({ act, command }: CommandEnv): Command {
  return command('sources')
    .description('list the DocumentSource values (for --source)')
    .addHelpText('after', EXAMPLES(['kis sources', 'kis --json sources']))
    .action(
      act(async (ctx) => {
        const values = documentSources();
        ctx.out.result({ sources: values }, [...values]);
        return ExitCode.Ok;
      }),
    );
}
