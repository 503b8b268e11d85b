/**
 * `kis connector` (alias `connectors`): `create` (create.ts), `fields` (fields.ts) and
 * `associate` (associate.ts), then the commands that operate pairs (operate.ts): `list`,
 * `status`, `run`, `pause`, `resume`, `prune` and `delete`.
 */
import { DEFAULT_CREDENTIAL_ID, SOURCES_WITHOUT_CREDENTIAL } from '@kis/rules';
import { Command } from 'commander';
import type { Act, CommandEnv } from '../../action.js';
import { collect, intArg } from '../../arg-parsers.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { type ConnectorAssociateOptions, runConnectorAssociate } from './associate.js';
import { type ConnectorCreateOptions, runConnectorCreate } from './create.js';
import { runConnectorFields } from './fields.js';
import {
  deleteCommand,
  listCommand,
  pauseCommand,
  pruneCommand,
  resumeCommand,
  runCommand,
  statusCommand,
} from './operate.js';

// What the help says about the service comes from the rule book (`@kis/rules`), never a copy.
/** "Sources that need no credential use the default empty credential 0: ingestion_api, web, …". */
const NO_CREDENTIAL_TEXT = `Sources that need no credential use the default empty credential ${DEFAULT_CREDENTIAL_ID}: ${SOURCES_WITHOUT_CREDENTIAL.join(', ')}.`;

export function connectorCommand({ act, interrupts }: CommandEnv): Command {
  return new Command('connector')
    .alias('connectors')
    .description(
      'create connectors (with their credential association); list, watch, run, pause, resume, prune and delete their pairs',
    )
    .addCommand(createCommand(act))
    .addCommand(fieldsCommand(act))
    .addCommand(associateCommand(act))
    .addCommand(listCommand(act))
    .addCommand(statusCommand(act, interrupts))
    .addCommand(runCommand(act))
    .addCommand(pauseCommand(act))
    .addCommand(resumeCommand(act))
    .addCommand(pruneCommand(act))
    .addCommand(deleteCommand(act));
}

function createCommand(act: Act): Command {
  return new Command('create')
    .description(
      'create a connector, find or take its credential and associate them (the three-step set-up); prints the connector, credential and cc pair ids',
    )
    .option('--name <name>', 'display name of the connector (default: SOURCE-YYYYMMDD-HHMMSS, UTC)')
    .option('--source <source>', 'DocumentSource value, e.g. jira, file, web (see `kis sources`)')
    .option('--config <json>', 'connector_specific_config: inline JSON, @file.json or @file.yaml')
    .option(
      '--set <key=value>',
      'a config field, typed by the source (repeat for lists or give a,b,c; over --config; see `kis connector fields SOURCE`)',
      collect,
      [] as string[],
    )
    .option('--input-type <type>', 'input type: load_state, poll, event, slim_retrieval', 'poll')
    .option('--access-type <type>', 'access type: public, private, sync', 'public')
    .option('--refresh-freq <seconds>', 'seconds between refreshes', intArg(0))
    .option('--prune-freq <seconds>', 'seconds between prune runs', intArg(0))
    .option(
      '--credential <id|auto>',
      `credential to associate: an id, or auto (${DEFAULT_CREDENTIAL_ID} for a source that needs no credential, else the one credential of the source)`,
      'auto',
    )
    .option(
      '--allow-duplicate-name',
      'create the connector even when a pair already has its name (commands that take the name then fit both)',
    )
    .option(
      '--from <file>',
      'create every connector of a YAML or JSON list (flags above other than --name/--config act as defaults)',
    )
    .addHelpText(
      'after',
      EXAMPLES([
        'kis connector create --name "Project A" --source jira --set jira_base_url=https://jira.example.com --set project_key=A --refresh-freq 3600 --prune-freq 86400',
        'kis connector create --name site --source web --config @web.yaml --credential 0',
        'kis connector create --from projects.yaml --source jira --credential 7',
        'kis --json connector create --name docs --source file --config \'{"file_locations": []}\'',
      ]) +
        `
${wrap(NO_CREDENTIAL_TEXT)}

A --from file is a list (or {"connectors": [...]}) of entries with the keys name, source,
connector_specific_config (or config), input_type, access_type, refresh_freq, prune_freq and
credential. One failing entry does not stop the others.

A name a pair already has (its connector's or its own) is refused (exit 2; with --from, that
entry fails, and so does an entry repeating an earlier one's name): every command that takes a
name would then fit two pairs. --allow-duplicate-name creates it anyway.
`,
    )
    .action(act((ctx, options: ConnectorCreateOptions) => runConnectorCreate(ctx, options)));
}

function fieldsCommand(act: Act): Command {
  return new Command('fields')
    .description(
      "list a source's config fields (name, kind, required, default, options) and credential keys, from the spec",
    )
    .argument('<source>', 'DocumentSource value, e.g. jira')
    .addHelpText(
      'after',
      EXAMPLES(['kis connector fields jira', 'kis --json connector fields web']),
    )
    .action(act((ctx, source: string) => runConnectorFields(ctx, source)));
}

function associateCommand(act: Act): Command {
  return new Command('associate')
    .description(
      "associate a credential with an existing connector (the set-up's last step on its own); prints the cc pair id",
    )
    .argument('<connector-id>', 'connector id', intArg(0))
    .requiredOption(
      '--credential <id>',
      `credential id (${DEFAULT_CREDENTIAL_ID}: the default empty credential, for a source that needs none)`,
      intArg(0),
    )
    .option('--name <name>', 'name of the connector/credential pair')
    .option('--access-type <type>', 'access type: public, private, sync', 'public')
    .addHelpText(
      'after',
      EXAMPLES([
        'kis connector associate 12 --credential 3',
        'kis --json connector associate 12 --credential 0 --access-type private',
      ]),
    )
    .action(
      act((ctx, connectorId: number, options: ConnectorAssociateOptions) =>
        runConnectorAssociate(ctx, connectorId, options),
      ),
    );
}
