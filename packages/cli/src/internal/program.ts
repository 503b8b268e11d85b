import type { EmulatorFlag } from '@kis/emulator';
import {
  DEFAULT_CC_PAIR_ID,
  DEFAULT_CREDENTIAL_ID,
  extensionsFor,
  FILE_KINDS,
  ROLES,
  roleAllows,
  SOURCES_WITHOUT_CREDENTIAL,
} from '@kis/rules';
import { Command, CommanderError } from 'commander';
import { collect, intArg } from './arg-parsers.js';
import type { ApplyCommandOptions } from './commands/apply.js';
import type { ConnectorAssociateOptions, ConnectorCreateOptions } from './commands/connector.js';
import type { DoctorCommandOptions } from './commands/doctor.js';
import type { EmulatorCommandOptions } from './commands/emulator.js';
import type { ExportCommandOptions } from './commands/export.js';
import type { IngestOptions } from './commands/ingest/index.js';
import type { SyncCommandOptions } from './commands/sync.js';
import {
  Context,
  cliVersion,
  collectSecrets,
  type GlobalOptions,
  redactingIo,
  type Secrets,
} from './context.js';
import { documentSources } from './enums.js';
import { ExitCode, type ExitCodeValue, oneLine } from './errors.js';
import { describeFailure } from './failure.js';
import { EXAMPLES, wrap } from './help-text.js';
import type { InterruptSource } from './interrupts.js';
import { findEmulator } from './optional-emulator.js';
import { colorEnabled, type Io, painter } from './output.js';
import { addRunOptions } from './run-options.js';

/** Options of {@link run}: the process surroundings, replaceable in tests. */
export interface RunOptions {
  io?: Partial<Io>;
  /** Where SIGINT/SIGTERM come from (default: `process`). */
  interrupts?: InterruptSource;
}

interface PrivateKeyOptions {
  file: string;
  name: string;
  credentialJson: string;
  fieldKey: string;
  typeDefinitionKey: string;
}

/** The command whose flags are @kis/emulator's own (see addEmulatorFlags). */
const EMULATOR_COMMAND = 'emulator';

// What the help says about the service comes from the rule book (`@kis/rules`), never a copy.
/** "Sources that need no credential use the default empty credential 0: ingestion_api, web, …". */
const NO_CREDENTIAL_TEXT = `Sources that need no credential use the default empty credential ${DEFAULT_CREDENTIAL_ID}: ${SOURCES_WITHOUT_CREDENTIAL.join(', ')}.`;
const INGEST_EXTENSIONS = extensionsFor('ingest');
const IMAGE_EXTENSIONS = INGEST_EXTENSIONS.filter((ext) => FILE_KINDS[ext]?.kind === 'image');
const TEXT_EXTENSIONS = INGEST_EXTENSIONS.filter((ext) => FILE_KINDS[ext]?.kind !== 'image');
/** The roles that may manage connectors and credentials on deployed servers: `curator or admin`. */
const MANAGING_ROLES = ROLES.filter((role) => roleAllows(role, 'curator')).join(' or ');
/** The highest role: `admin`. */
const TOP_ROLE = ROLES[ROLES.length - 1];

/** Commander's multi-line errors ("…\n(Did you mean x?)") as one line. */
function oneLineCommanderError(text: string): string {
  return `${text
    .trim()
    .replace(/\s*\n\s*\(Did you mean (.*)\?\)/, ' (did you mean $1?)')
    .replace(/\s*\n\s*/g, ' ')}\n`;
}

function buildProgram(
  io: Io,
  secrets: Secrets,
  interrupts: InterruptSource,
  state: { exitCode: ExitCodeValue; ctx?: Context },
): Command {
  const program = new Command('kis');
  const errPaint = painter(colorEnabled(io.stderr, io.env));
  program
    .description(
      'The command line of the Knowledge Indexing Service API: connectors and credentials (one at a time or from a kis.yaml file), image uploads, resumable bulk ingestion and folder sync.',
    )
    .version(cliVersion(), '-V, --version', 'print the version')
    .option('--base-url <url>', 'API root including the /api prefix (env KIS_BASE_URL)')
    .option('--api-key <key>', 'API key (env KIS_API_KEY; never printed)')
    .option(
      '--allow-insecure-http',
      'send the API key over plain http:// to a host other than this machine (env KIS_ALLOW_INSECURE_HTTP=1); refused otherwise',
    )
    .option('--api-key-file <file>', 'read the API key from a file')
    .option('--json', 'machine-readable output: one JSON document per line on stdout, nothing else')
    .option('-q, --quiet', 'no progress or notes on stderr; results and errors only')
    .option('-v, --verbose', 'log every HTTP request and answer on stderr (API key redacted)')
    .option('--no-color', 'no colours (NO_COLOR is respected too)')
    .helpOption('-h, --help', 'show help (every command has its own, with examples)')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      outputError: (s, write) => write(`${errPaint.red(oneLineCommanderError(s).trimEnd())}\n`),
      getOutHelpWidth: () => (io.stdout.isTTY ? (io.stdout.columns ?? 100) : 100),
      getErrHelpWidth: () => (io.stderr.isTTY ? (io.stderr.columns ?? 100) : 100),
      getOutHasColors: () => colorEnabled(io.stdout, io.env),
      getErrHasColors: () => colorEnabled(io.stderr, io.env),
    })
    .addHelpText(
      'after',
      `
Environment:
  KIS_BASE_URL   API root including /api, e.g. http://localhost:8080/api
  KIS_ALLOW_INSECURE_HTTP  1: allow a plain http:// base URL on another host (the key is readable on the way)
  KIS_API_KEY    API key. Connector and credential commands need the ${TOP_ROLE} role on servers
                 that follow the seed; deployed servers take ${MANAGING_ROLES}, and ask for it
                 on ingest and docs commands too
  NO_COLOR       disable colours

Exit codes:
  0  all good
  1  some items failed (each failure is listed)
  2  usage or input error
  3  authentication, connection or server-side failure that stopped the command
  130 interrupted (Ctrl-C); in-flight requests were finished and recorded
${EXAMPLES([
  'kis emulator --port 8080 &',
  'export KIS_BASE_URL=http://127.0.0.1:8080/api KIS_API_KEY=…',
  'kis connector create --name docs --source file --config \'{"file_locations": []}\'',
  'kis ingest ./docs --cc-pair 2 --journal .kis/docs.jsonl',
])}`,
    );

  /** Wraps a command handler: builds the context, records the exit code. */
  const act =
    <A extends unknown[]>(handler: (ctx: Context, ...args: A) => Promise<ExitCodeValue>) =>
    async (...args: unknown[]): Promise<void> => {
      const command = args[args.length - 1] as Command;
      const ctx = new Context(io, command.optsWithGlobals() as GlobalOptions, secrets);
      state.ctx = ctx;
      state.exitCode = await handler(ctx, ...(args.slice(0, -1) as A));
    };

  // ---- connector
  const connector = program
    .command('connector')
    .alias('connectors')
    .description('create connectors (with their credential association), or associate one');
  connector
    .command('create')
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
`,
    )
    .action(
      act(async (ctx, options: ConnectorCreateOptions) => {
        const { connectorCreateCommand } = await import('./commands/connector.js');
        return connectorCreateCommand(ctx, options);
      }),
    );

  connector
    .command('fields')
    .description(
      "list a source's config fields (name, kind, required, default, options) and credential keys, from the spec",
    )
    .argument('<source>', 'DocumentSource value, e.g. jira')
    .addHelpText(
      'after',
      EXAMPLES(['kis connector fields jira', 'kis --json connector fields web']),
    )
    .action(
      act(async (ctx, source: string) => {
        const { connectorFieldsCommand } = await import('./commands/fields.js');
        return connectorFieldsCommand(ctx, source);
      }),
    );

  connector
    .command('associate')
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
      act(async (ctx, connectorId: number, options: ConnectorAssociateOptions) => {
        const { connectorAssociateCommand } = await import('./commands/connector.js');
        return connectorAssociateCommand(ctx, connectorId, options);
      }),
    );

  // ---- credential
  const credential = program
    .command('credential')
    .alias('credentials')
    .description('list and create credentials, replace a private key');
  credential
    .command('list')
    .description('list credentials (credential_json values are never printed)')
    .option('--source <source>', 'only credentials of this DocumentSource')
    .addHelpText(
      'after',
      EXAMPLES(['kis credential list', 'kis --json credential list --source jira']),
    )
    .action(
      act(async (ctx, options: { source?: string }) => {
        const { credentialListCommand } = await import('./commands/credential.js');
        return credentialListCommand(ctx, options);
      }),
    );
  credential
    .command('create')
    .description('create a credential (POST /manage/credential); prints its id')
    .requiredOption('--source <source>', 'DocumentSource the credential is for')
    .option('--credential-json <json>', 'credential_json: inline JSON, @file.json or @file.yaml')
    .option(
      '--set <key=value>',
      'a credential_json key (over --credential-json): key=value, key=@file or key=env:NAME; values are never printed',
      collect,
      [] as string[],
    )
    .option('--name <name>', 'display name')
    .option('--admin-public', 'make the credential public to admins (admin_public: true)')
    .addHelpText(
      'after',
      EXAMPLES([
        'kis credential create --source jira --name jira-bot --set jira_user_email=bot@example.com --set jira_api_token=env:JIRA_TOKEN',
        'kis credential create --source jira --name jira-bot --credential-json @jira-cred.json',
        'kis credential create --source confluence --credential-json \'{"confluence_access_token":"…"}\' --admin-public',
      ]),
    )
    .action(
      act(
        async (
          ctx,
          options: {
            source: string;
            credentialJson?: string;
            set: string[];
            name?: string;
            adminPublic?: boolean;
          },
        ) => {
          const { credentialCreateCommand } = await import('./commands/credential.js');
          return credentialCreateCommand(ctx, options);
        },
      ),
    );
  credential
    .command('set-private-key')
    .description('replace the private-key file of a credential (multipart upload)')
    .argument('<id>', 'credential id', intArg(0))
    .requiredOption('--file <path>', 'the private-key file, e.g. a PKCS#12 .pfx file')
    .requiredOption('--name <name>', 'display name of the credential')
    .requiredOption(
      '--credential-json <json>',
      'credential_json: inline JSON, @file.json or @file.yaml',
    )
    .requiredOption(
      '--field-key <key>',
      'key inside credential_json that receives the processed file',
    )
    .requiredOption('--type-definition-key <key>', 'kind of file, e.g. sharepoint_pfx_file')
    .addHelpText(
      'after',
      EXAMPLES([
        'kis credential set-private-key 12 --file cert.pfx --name sharepoint --credential-json @cred.json --field-key sp_private_key --type-definition-key sharepoint_pfx_file',
      ]),
    )
    .action(
      act(async (ctx, id: number, options: PrivateKeyOptions) => {
        const { credentialSetPrivateKeyCommand } = await import('./commands/credential.js');
        return credentialSetPrivateKeyCommand(ctx, id, options);
      }),
    );

  // ---- upload
  program
    .command('upload')
    .description(
      `upload image files (${IMAGE_EXTENSIONS.join(' ')}) and print their file ids, for image sections`,
    )
    .argument('<files...>', 'image files')
    .addHelpText(
      'after',
      EXAMPLES(['kis upload diagram.png photo.jpg', 'kis --json upload *.png']) +
        '\nPrints "FILE<TAB>FILE_ID" per file (--json: {"file","file_id"} per file, then a summary).\n',
    )
    .action(
      act(async (ctx, files: string[]) => {
        const { uploadCommand } = await import('./commands/upload.js');
        return uploadCommand(ctx, files);
      }),
    );

  // ---- ingest
  addRunOptions(program.command('ingest'))
    .description(
      'push files, folders and JSONL exports into the index: text extracted, images uploaded, concurrent, resumable',
    )
    .argument(
      '<paths...>',
      'files, directories (walked recursively), .jsonl files of documents or ingestion requests, or - for JSONL on stdin',
    )
    .option(
      '--cc-pair <id>',
      `cc pair the documents are attached to (default: the server's default pair, ${DEFAULT_CC_PAIR_ID})`,
      intArg(0),
    )
    .option(
      '--journal <file>',
      'record acknowledged documents in FILE; a re-run with the same FILE skips them (resume)',
    )
    .option(
      '--dry-run',
      "validate and extract everything and print each document's id; send nothing (no server needed)",
    )
    .addHelpText(
      'after',
      EXAMPLES([
        'kis ingest ./docs --cc-pair 2',
        'kis ingest ./docs --cc-pair 2 --journal .kis/docs.jsonl',
        'kis ingest ./docs --cc-pair 2 --concurrency 16 --retry-for 30m --max-outage 15m',
        'kis ingest ./docs --cc-pair 2 --concurrency 4 --fixed-concurrency',
        'kis ingest export.jsonl --cc-pair 2',
        'cat export.jsonl | kis ingest - --cc-pair 2',
        "kis ingest ./site --include '*.html' --exclude 'drafts/**' --source web --dry-run",
      ]) +
        `
${wrap(
  `Files (${TEXT_EXTENSIONS.join(' ')}, images ${IMAGE_EXTENSIONS.join(' ')}) become one document
each, with id = the file's path relative to the current directory (or --base-dir), so a re-run
updates instead of duplicating; metadata records file_type and relative_path. Images are
uploaded (once per distinct content) and become image sections. Hidden files and unsupported types inside directories
are ignored. A JSONL line is a document, or an ingestion request {"document", "cc_pair_id"}.
Each document is retried until it is stored or its failure is final (--retry-for); when the
server stops answering, the run pauses and resumes by itself, and stops (exit 3) after
--max-outage. Ctrl-C finishes the requests in flight, records them in the journal and exits 130;
run the same command again to resume. --dry-run needs no server: it prints each document's id.`,
)}
`,
    )
    .action(
      act(async (ctx, paths: string[], options: IngestOptions) => {
        const { ingestCommand } = await import('./commands/ingest/index.js');
        return ingestCommand(ctx, paths, options, interrupts);
      }),
    );

  // ---- sync
  addRunOptions(program.command('sync'))
    .description(
      'make a cc pair equal to folders or a JSONL export: create, update, skip the unchanged, and (--prune) delete what is gone',
    )
    .argument('<paths...>', 'as for `kis ingest`: files, directories, .jsonl files, or - for stdin')
    .requiredOption('--cc-pair <id>', 'the cc pair to keep equal to the paths', intArg(0))
    .option('--prune', 'delete the documents this sync owns that are gone from the paths')
    .option(
      '--max-delete <n|p%>',
      'the most owned documents a prune may delete, a count or a share (default 50%)',
    )
    .option('--force', 'prune past --max-delete')
    .option(
      '--namespace <prefix>',
      'put PREFIX before every document id and own exactly the ids under it (default: each directory owns the ids under its path)',
    )
    .option(
      '--journal <file>',
      'content hashes of acknowledged documents (default .kis/sync/<base URL>-pair-<id>.jsonl)',
    )
    .option('--dry-run', 'print the plan and send nothing')
    .option(
      '--watch',
      'after the first sync, sync again each time the paths change (Ctrl-C to stop)',
    )
    .addHelpText(
      'after',
      EXAMPLES([
        'kis sync ./docs --cc-pair 2 --dry-run',
        'kis sync ./docs --cc-pair 2 --prune --watch',
        'kis sync ./docs --cc-pair 2 --prune',
        'kis sync ./docs --cc-pair 2 --prune --max-delete 10%',
        'kis sync export.jsonl --cc-pair 2 --namespace crm/ --prune',
      ]) +
        `
${wrap(
  `The plan comes from the pair's document listing, the journal's content hashes and which ids
the sync owns: a document is sent when it is new or changed (or when the journal cannot prove it
unchanged), skipped when unchanged, and deleted with --prune when the paths no longer have it.
Only owned ids are ever deleted: the ids under each directory given (document ids are paths
relative to the current directory or --base-dir, as for kis ingest), or under --namespace. A
prune over --max-delete is refused (exit 2) unless --force. Exit 0 when the pair equals the
paths, 1 when documents failed (listed), 3 when the server stopped the run.`,
)}
`,
    )
    .action(
      act(async (ctx, paths: string[], options: SyncCommandOptions) => {
        const { syncCommand } = await import('./commands/sync.js');
        return syncCommand(ctx, paths, options, interrupts);
      }),
    );

  // ---- docs
  const docs = program
    .command('docs')
    .alias('doc')
    .description('list and delete ingested documents');
  docs
    .command('list')
    .description('list ingested documents (all, or those of one cc pair)')
    .option('--cc-pair <id>', "only this cc pair's documents", intArg(0))
    .addHelpText('after', EXAMPLES(['kis docs list', 'kis --json docs list --cc-pair 2']))
    .action(
      act(async (ctx, options: { ccPair?: number }) => {
        const { docsListCommand } = await import('./commands/docs.js');
        return docsListCommand(ctx, options);
      }),
    );
  docs
    .command('delete')
    .description('delete ingested documents by id (as `kis docs list` prints them)')
    .argument('<ids...>', 'document ids')
    .addHelpText(
      'after',
      EXAMPLES(['kis docs delete docs%2Fintro.md', 'kis docs delete docs/intro.md old.txt']),
    )
    .action(
      act(async (ctx, ids: string[]) => {
        const { docsDeleteCommand } = await import('./commands/docs.js');
        return docsDeleteCommand(ctx, ids);
      }),
    );

  // ---- emulator: the flags are @kis/emulator's own (the same as `kis-emulator`'s), added by
  // `run` when the command line may reach this command (addEmulatorFlags)
  program
    .command(EMULATOR_COMMAND)
    .description('start the local emulator of the service (SQLite) until Ctrl-C')
    .addHelpText(
      'after',
      EXAMPLES([
        'kis emulator',
        'kis emulator --profile deployed --curator-key dev-curator-key-1',
        'kis --api-key dev-admin-key-123 emulator --port 8080 --db :memory:',
        'kis --json emulator --port 0 --latency-ms 20',
      ]),
    )
    .action(
      act(async (ctx, options: EmulatorCommandOptions) => {
        const { emulatorCommand } = await import('./commands/emulator.js');
        return emulatorCommand(ctx, options, interrupts);
      }),
    );

  // ---- apply
  program
    .command('apply')
    .description(
      'make the server hold the connectors, credentials and pairs of a kis.yaml file: prints a plan, then changes only what differs',
    )
    .requiredOption('-f, --file <file>', 'the kis.yaml (or .json) file')
    .option('--dry-run', 'print the plan and change nothing')
    .option('--prune', 'also delete what the server has and the file does not (asks first)')
    .option('-y, --yes', 'do not ask before deleting (for --prune without a terminal)')
    .option(
      '--secrets-file <file>',
      'fingerprints of the credential values sent (default .kis/apply/<base URL>.json)',
    )
    .addHelpText(
      'after',
      EXAMPLES([
        'kis apply -f kis.yaml --dry-run',
        'JIRA_TOKEN=… kis apply -f kis.yaml',
        'kis apply -f kis.yaml --prune --yes',
      ]) +
        `
${wrap(
  "Connectors and credentials are matched on the server by name and source; a connector's pair by its connector and credential. Secrets are written as references to environment variables or files (see README) and never printed; they are compared with what kis sent before (fingerprints in --secrets-file), never with the server's masked answers. A failure part-way leaves a state the next apply finishes. The file's JSON Schema is @kis/spec/kis-file.schema.json. Exit code 0 when the server matches the file, 1 when a change failed, 2 for a problem in the file (every one is listed, nothing is sent), 3 when the server cannot be reached.",
)}
`,
    )
    .action(
      act(async (ctx, options: ApplyCommandOptions) => {
        const { applyCommand } = await import('./commands/apply.js');
        return applyCommand(ctx, options);
      }),
    );

  // ---- export
  program
    .command('export')
    .description(
      "write the server's connectors, credentials (no secrets) and pairs as a file kis apply takes",
    )
    .option('-o, --output <file>', 'write to this file (default stdout)')
    .option('--format <format>', 'yaml or json (default: from the file name, else yaml)')
    .addHelpText('after', EXAMPLES(['kis export -o kis.yaml', 'kis export --format json']))
    .action(
      act(async (ctx, options: ExportCommandOptions) => {
        const { exportCommand } = await import('./commands/export.js');
        return exportCommand(ctx, options);
      }),
    );

  // ---- doctor
  program
    .command('doctor')
    .description(
      'check the server, the base URL and the API key: that it answers, the /api prefix, the key and its role, which routes and release the server has',
    )
    .option(
      '--cc-pair <id>',
      'also check that this cc pair exists and count its documents',
      intArg(0),
    )
    .addHelpText(
      'after',
      EXAMPLES(['kis doctor', 'kis doctor --cc-pair 2', 'kis --json doctor']) +
        `
${wrap(
  'Prints each check with ✓ or ✗, and how to fix a failure; the requests change nothing on the server. The base URL is taken as given, so a missing /api prefix is diagnosed, not refused. Exit code 0 when every check passes, 1 when one fails, 3 when the server cannot be reached.',
)}
`,
    )
    .action(
      act(async (ctx, options: DoctorCommandOptions) => {
        const { doctorCommand } = await import('./commands/doctor.js');
        return doctorCommand(ctx, options);
      }),
    );

  // ---- sources
  program
    .command('sources')
    .description('list the DocumentSource values (for --source)')
    .addHelpText('after', EXAMPLES(['kis sources', 'kis --json sources']))
    .action(
      act(async (ctx) => {
        const values = documentSources();
        ctx.out.result({ sources: values }, [...values]);
        return ExitCode.Ok;
      }),
    );

  return program;
}

/** Gives `kis emulator` @kis/emulator's own flags (the same as `kis-emulator`'s). */
function addEmulatorFlags(program: Command, flags: readonly EmulatorFlag[]): void {
  const emulatorCmd = program.commands.find((c) => c.name() === EMULATOR_COMMAND);
  if (emulatorCmd === undefined) throw new Error('kis: the emulator command is missing');
  for (const flag of flags) {
    const spec = `--${flag.name}${flag.value === undefined ? '' : ` <${flag.value.toLowerCase()}>`}`;
    // No commander default: the launcher applies the same defaults as `kis-emulator`.
    if (flag.multiple) {
      emulatorCmd.option(spec, flag.help, (v: string, previous?: string[]) => [
        ...(previous ?? []),
        v,
      ]);
    } else {
      emulatorCmd.option(spec, flag.help);
    }
  }
}

/** Without @kis/emulator, `kis emulator …` still runs, to say how to get it (any flags given). */
function acceptAnyEmulatorFlags(program: Command): void {
  const emulatorCmd = program.commands.find((c) => c.name() === EMULATOR_COMMAND);
  emulatorCmd?.allowUnknownOption(true).allowExcessArguments(true);
}

/**
 * Whether a command line may need `kis emulator`'s flags: it runs that command, or may print
 * the list of commands (help, no command, an unknown one, anything not read with certainty).
 * Loading @kis/emulator (a server, SQLite, the spec's validators) costs about 80 ms of start-up,
 * which the other commands should not pay. False only when the first operand, after global
 * options this program knows, names another command, or when `--version` comes first.
 */
function mayNeedEmulatorFlags(program: Command, argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg.startsWith('-')) {
      const [flag, inline] = arg.startsWith('--') ? arg.split('=', 2) : [arg, undefined];
      const option = program.options.find((o) => o.long === flag || o.short === flag);
      // unknown (help, combined short flags…) or an optional value: not read with certainty
      if (option === undefined || option.optional) return true;
      if (option.long === '--version') return false; // prints the version and stops there
      if (option.required && inline === undefined) i++;
      continue;
    }
    const command = program.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    return command === undefined || command.name() === EMULATOR_COMMAND;
  }
  return true;
}

/**
 * Runs the `kis` command line with `argv` (the arguments after the program name) and resolves
 * with the exit code. Never calls `process.exit`.
 */
export async function run(argv: readonly string[], options: RunOptions = {}): Promise<number> {
  const rawIo: Io = {
    stdout: options.io?.stdout ?? process.stdout,
    stderr: options.io?.stderr ?? process.stderr,
    stdin: options.io?.stdin ?? process.stdin,
    env: options.io?.env ?? process.env,
    cwd: options.io?.cwd ?? process.cwd(),
  };
  const secrets = collectSecrets(argv, rawIo.env);
  const io = redactingIo(rawIo, secrets);
  const state: { exitCode: ExitCodeValue; ctx?: Context } = { exitCode: ExitCode.Ok };
  const program = buildProgram(io, secrets, options.interrupts ?? process, state);
  try {
    if (mayNeedEmulatorFlags(program, argv)) {
      const emulator = await findEmulator();
      if (emulator) addEmulatorFlags(program, emulator.EMULATOR_FLAGS);
      else acceptAnyEmulatorFlags(program);
    }
    await program.parseAsync([...argv], { from: 'user' });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    }
    const ctx = state.ctx;
    let baseUrl: string | undefined;
    try {
      baseUrl = ctx ? (await ctx.connection()).baseUrl : undefined;
    } catch {
      baseUrl = undefined;
    }
    const failure = describeFailure(error, baseUrl);
    const paint = painter(colorEnabled(io.stderr, io.env) && ctx?.options.color !== false);
    io.stderr.write(`${paint.red('error:')} ${oneLine(failure.message)}\n`);
    if (ctx?.options.verbose && error instanceof Error && error.stack) {
      io.stderr.write(`${error.stack}\n`);
    }
    return failure.exitCode;
  }
}
