/**
 * The commander commands that operate pairs after their creation: `list`, `status`, `run`,
 * `pause`, `resume`, `prune` and `delete` (their handlers: list.ts, status.ts, control.ts,
 * delete.ts).
 */
import { Command } from 'commander';
import type { Act } from '../../action.js';
import { durationArg } from '../../arg-parsers.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import type { InterruptSource } from '../../interrupts.js';
import {
  type ConnectorRunOptions,
  runConnectorPause,
  runConnectorPrune,
  runConnectorResume,
  runConnectorRun,
} from './control.js';
import { type ConnectorDeleteOptions, runConnectorDelete } from './delete.js';
import { runConnectorList } from './list.js';
import { type ConnectorStatusOptions, runConnectorStatus } from './status.js';

const PAIR_HELP =
  'PAIR is a pair id (as `kis connector list` shows it) or the name of its connector (or of the pair); a name that fits several pairs is refused with their ids.';

function pairHelp(examples: readonly string[], more = ''): string {
  return `${EXAMPLES(examples)}\n${wrap(`${PAIR_HELP}${more ? ` ${more}` : ''}`)}\n`;
}

export function listCommand(act: Act): Command {
  return new Command('list')
    .description(
      'list the connector/credential pairs: connector, source, pair id, status, documents, last success, in error',
    )
    .addHelpText(
      'after',
      `${EXAMPLES(['kis connector list', 'kis --json connector list'])}\n${wrap(
        '"in error" is yes when the last index attempts all failed. Deployed servers leave the ingestion pair (1) out of their listings.',
      )}\n`,
    )
    .action(act((ctx) => runConnectorList(ctx)));
}

export function statusCommand(act: Act, interrupts: InterruptSource): Command {
  return new Command('status')
    .description("a pair's detail, its latest index attempts and its unresolved errors")
    .argument('<pair>', 'pair id or connector name')
    .option('--watch', 'read it again until no index attempt is running or waiting')
    .option('--interval <duration>', 'with --watch: time between two reads', durationArg, 2000)
    .addHelpText(
      'after',
      pairHelp(
        [
          'kis connector status 5',
          'kis connector status "Project A" --watch',
          'kis --json connector status 5',
        ],
        'With --watch a line is printed each time the status, the newest attempt or its documents change, and the exit code says how the newest attempt ended (0 success, 1 failed or canceled; 130 on Ctrl-C).',
      ),
    )
    .action(
      act((ctx, pair: string, options: ConnectorStatusOptions) =>
        runConnectorStatus(ctx, pair, options, interrupts),
      ),
    );
}

export function runCommand(act: Act): Command {
  return new Command('run')
    .description('index pairs now (run once): what changed since the last run, or everything')
    .argument('<pairs...>', 'pair ids or connector names')
    .option('--from-beginning', 're-read the whole source instead of what changed')
    .addHelpText(
      'after',
      pairHelp(
        [
          'kis connector run 5',
          'kis connector run 5 7 --from-beginning',
          'kis connector run "Project A" && kis connector status "Project A" --watch',
        ],
        'A paused, invalid or deleting pair is not run, and neither is one whose attempt is already running or waiting (each said on its own line, exit 1). The attempt starts when a server worker takes it.',
      ),
    )
    .action(
      act((ctx, pairs: string[], options: ConnectorRunOptions) =>
        runConnectorRun(ctx, pairs, options),
      ),
    );
}

export function pauseCommand(act: Act): Command {
  return new Command('pause')
    .description(
      'pause pairs: no index attempt runs until they are resumed (a running one is canceled)',
    )
    .argument('<pairs...>', 'pair ids or connector names')
    .addHelpText(
      'after',
      pairHelp(
        ['kis connector pause 5', 'kis connector pause "Project A" "Project B"'],
        'A pair being deleted is not paused (that would stop its deletion).',
      ),
    )
    .action(act((ctx, pairs: string[]) => runConnectorPause(ctx, pairs)));
}

export function resumeCommand(act: Act): Command {
  return new Command('resume')
    .description('resume paused (or invalid) pairs: they are indexed again')
    .argument('<pairs...>', 'pair ids or connector names')
    .addHelpText(
      'after',
      pairHelp(
        ['kis connector resume 5', 'kis connector resume 5 7'],
        'A pair that is not paused is left as it is; one being deleted is not resumed (that would stop its deletion).',
      ),
    )
    .action(act((ctx, pairs: string[]) => runConnectorResume(ctx, pairs)));
}

export function pruneCommand(act: Act): Command {
  return new Command('prune')
    .description('remove from the index the documents of a pair that its source no longer has')
    .argument('<pair>', 'pair id or connector name')
    .addHelpText(
      'after',
      pairHelp(
        ['kis connector prune 5', 'kis connector prune "Project A"'],
        'The prune runs on the server; `kis connector status` shows when one last finished. A prune already running is said (exit 1).',
      ),
    )
    .action(act((ctx, pair: string) => runConnectorPrune(ctx, pair)));
}

export function deleteCommand(act: Act): Command {
  return new Command('delete')
    .description(
      'delete pairs with their documents (then their connector, when no pair is left); asks first',
    )
    .argument('<pairs...>', 'pair ids or connector names')
    .option('-y, --yes', 'do not ask (needed without a terminal)')
    .option('--wait', 'follow each deletion until the server no longer has the pair')
    .option(
      '--wait-for <duration>',
      'with --wait: the longest wait for each pair',
      durationArg,
      600_000,
    )
    .addHelpText(
      'after',
      pairHelp(
        [
          'kis connector delete 5',
          'kis connector delete "Project A" --yes --wait',
          'kis --json connector delete 5 7 --yes',
        ],
        'The server removes the documents only this pair indexed, the pair, and its connector when no other pair uses it; the credential stays. Without a terminal to ask on, --yes is required (exit 2).',
      ),
    )
    .action(
      act((ctx, pairs: string[], options: ConnectorDeleteOptions) =>
        runConnectorDelete(ctx, pairs, options),
      ),
    );
}
