/**
 * `kis connector create`: the three-step set-up (the credential found or taken, the connector
 * created, the two associated) of one connector from the flags, or of each entry of `--from FILE`.
 * The pair's access and groups are set at the association (no call changes them later).
 */
import {
  type ConnectorCreateRequest,
  connectorConfigIssues,
  type KisClient,
  type UserGroup,
} from '@kis/client';
import {
  DEFAULT_CREDENTIAL_ID,
  PUSH_ONLY_SOURCE,
  pruneListing,
  SOURCES_WITHOUT_CREDENTIAL,
} from '@kis/rules';
import { type Command, Option } from 'commander';
import type { CommandEnv } from '../../action.js';
import { collect, intArg } from '../../arg-parsers.js';
import { configFromSets } from '../../connector-fields.js';
import type { Context } from '../../context.js';
import { accessTypes, checkEnum, checkSource, inputTypes } from '../../enums.js';
import { CliError, ExitCode, type ExitCodeValue, oneLine, UsageError } from '../../errors.js';
import { describeFailure } from '../../failure.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { findAllNamed } from '../../scope-ref.js';
import {
  describeJsonType,
  isPlainObject,
  parseByExtension,
  readObjectArg,
  readTextFile,
} from '../../structured.js';
import { TakenNames } from '../../taken-names.js';

// What the help says about the service comes from the rule book (`@kis/rules`), never a copy.
/** "Sources that need no credential use the default empty credential 0: ingestion_api, web, …". */
const NO_CREDENTIAL_TEXT = `Sources that need no credential use the default empty credential ${DEFAULT_CREDENTIAL_ID}: ${SOURCES_WITHOUT_CREDENTIAL.join(', ')}.`;

const FOR_INGESTION_TEXT = `For documents you push (kis ingest, kis sync), use --for-ingestion: a connector of source ${PUSH_ONLY_SOURCE} (config {}, refresh_freq and prune_freq null) with credential ${DEFAULT_CREDENTIAL_ID}. No connector run indexes its pair and no prune empties it (servers fail its prune, deleting nothing). A file connector with "file_locations": [] also takes pushed documents, but a prune of its pair, by hand or on its own once its prune_freq is set, deletes every one of them: kis warns when one is created.`;

/** Flags that describe the connector --for-ingestion sets up itself. */
const NOT_WITH_FOR_INGESTION = [
  ['source', '--source'],
  ['config', '--config'],
  ['from', '--from'],
  ['refreshFreq', '--refresh-freq'],
  ['pruneFreq', '--prune-freq'],
  ['credential', '--credential'],
] as const;

/** The warning for a connector whose prunes delete what is pushed into its pair (file). */
function pruneWarning(source: string): string | undefined {
  return pruneListing(source) === 'file-locations'
    ? `a prune of a ${source} connector's pair deletes every document pushed into it that its file_locations do not list (every one with []); for a pair to push into, use --for-ingestion`
    : undefined;
}

export function createCommand({ act, command }: CommandEnv): Command {
  return command('create')
    .description(
      'create a connector, find or take its credential and associate them (the three-step set-up); prints the connector, credential and cc pair ids',
    )
    .option('--name <name>', 'display name of the connector (default: SOURCE-YYYYMMDD-HHMMSS, UTC)')
    .option(
      '--for-ingestion',
      `a pair to push documents into: a ${PUSH_ONLY_SOURCE} connector with no refresh and no prune, which no connector run or prune can empty (instead of --source and its config)`,
    )
    .option('--source <source>', 'DocumentSource value, e.g. jira, file, web (see `kis sources`)')
    .option('--config <json>', 'connector_specific_config: inline JSON, @file.json or @file.yaml')
    .option(
      '--set <key=value>',
      'a config field, typed by the source (repeat for lists or give a,b,c; over --config; see `kis connector fields SOURCE`)',
      collect,
      [] as string[],
    )
    .option('--input-type <type>', 'input type: load_state, poll, event, slim_retrieval', 'poll')
    .option(
      '--access <type>',
      "who sees the pair's documents: public (everyone, the default), private (the credential's owner and the pair's groups) or sync (permission sync); fixed once created",
    )
    .addOption(new Option('--access-type <type>', 'the former name of --access').hideHelp())
    .option(
      '--group <group>',
      'a user group (name or id) whose members see a private pair; repeat for more (enterprise edition)',
      collect,
      [] as string[],
    )
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
        'kis connector create --for-ingestion --name "Team docs"',
        'kis connector create --name "Project A" --source jira --set jira_base_url=https://jira.example.com --set project_key=A --refresh-freq 3600 --prune-freq 86400',
        'kis connector create --name site --source web --config @web.yaml --credential 0',
        'kis connector create --name tickets --source file --config \'{"file_locations": []}\' --access private --group Support',
        'kis connector create --from projects.yaml --source jira --credential 7',
        'kis --json connector create --name docs --source file --config \'{"file_locations": []}\'',
      ]) +
        `
${wrap(NO_CREDENTIAL_TEXT)}

${wrap(FOR_INGESTION_TEXT)}

A --from file is a list (or {"connectors": [...]}) of entries with the keys name, source,
connector_specific_config (or config), input_type, access_type, groups, refresh_freq, prune_freq
and credential. One failing entry does not stop the others.

--access and --group are the pair's, set at its association: no call changes them later (a
group's pairs change with kis group add-pairs). A server without user groups (community
edition, or below the Business plan) refuses --group with one error saying why (exit 3).

A name a pair already has (its connector's or its own) is refused (exit 2; with --from, that
entry fails, and so does an entry repeating an earlier one's name): every command that takes a
name would then fit two pairs. --allow-duplicate-name creates it anyway.
`,
    )
    .action(act((ctx, options: ConnectorCreateOptions) => runConnectorCreate(ctx, options)));
}

export interface ConnectorCreateOptions {
  name?: string;
  /** `--for-ingestion`: a pair to push into (`setupIngestionPair`). */
  forIngestion?: boolean;
  source?: string;
  config?: string;
  /** `--set key=value` items, typed by the source's fields. */
  set?: string[];
  inputType?: string;
  access?: string;
  /** The former name of `--access`. */
  accessType?: string;
  /** `--group` items: names or ids. */
  group?: string[];
  refreshFreq?: number;
  pruneFreq?: number;
  /** A credential id or `auto` (as typed on the command line). */
  credential?: string;
  from?: string;
  /** `--allow-duplicate-name`: create even when a pair already answers to the name. */
  allowDuplicateName?: boolean;
}

/**
 * The name of a connector created without `--name`: the source and the time (UTC, to the
 * second), so that repeated creations do not clash (deployed servers refuse a duplicate name).
 */
export function defaultName(source: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${source}-${stamp}`;
}

/**
 * Why `spec`'s name may not be taken (`field` names it in the message), or undefined: the pairs
 * that already answer to it, read once from the server (`taken`). A config with problems is not
 * checked: `setupConnector` refuses it before any request.
 */
async function nameTaken(
  taken: () => Promise<TakenNames> | undefined,
  spec: ConnectorSpec,
  field: string,
): Promise<string | undefined> {
  const { name, source, connector_specific_config: config } = spec.connector;
  if ((await connectorConfigIssues(source, config)).length > 0) return undefined;
  const holders = (await taken())?.holders(name);
  if (holders === undefined) return undefined;
  return `${field}: ${holders} already has the name "${name}", and commands that take a name would then fit both; use that pair (by its id), choose another name, or pass --allow-duplicate-name`;
}

/**
 * The names taken on the server, read on first use; none with `--allow-duplicate-name`, which
 * lets any name through.
 */
function takenNames(
  ctx: Context,
  client: KisClient,
  options: ConnectorCreateOptions,
): () => Promise<TakenNames> | undefined {
  let taken: Promise<TakenNames> | undefined;
  return () => {
    if (options.allowDuplicateName === true) return undefined;
    taken ??= ctx
      .connection()
      .then(({ baseUrl }) => TakenNames.read(client, baseUrl, 'createConnector'));
    return taken;
  };
}

/** One connector to set up: the create request, which credential and groups to associate. */
interface ConnectorSpec {
  connector: ConnectorCreateRequest;
  credential: number | 'auto';
  /** The pair's groups, by name or id (resolved before the set-up). */
  groups: string[];
}

/** Parses `--credential`: a credential id or `auto`. */
export function parseCredentialArg(value: string): number | 'auto' {
  if (value.toLowerCase() === 'auto') return 'auto';
  if (/^\d+$/.test(value)) return Number(value);
  throw new UsageError(
    `--credential: expected a credential id (an integer ≥ 0) or "auto", got "${value}"`,
  );
}

/** A credential given in a `--from` entry (a number or a string) or as `--credential`. */
function credentialOf(raw: unknown, field: string): number | 'auto' {
  if (raw === undefined || raw === null) return 'auto';
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0) return raw;
  if (typeof raw === 'string') {
    try {
      return parseCredentialArg(raw);
    } catch {
      throw new UsageError(
        `${field}: expected a credential id (an integer ≥ 0) or "auto", got "${raw}"`,
      );
    }
  }
  throw new UsageError(
    `${field}: expected a credential id (an integer ≥ 0) or "auto", got ${JSON.stringify(raw)}`,
  );
}

/** The fields of one connector, from the flags or a `--from` entry, before they are checked. */
interface SpecFields {
  name: unknown;
  source: unknown;
  config: unknown;
  inputType: unknown;
  accessType: unknown;
  refreshFreq: unknown;
  pruneFreq: unknown;
  credential: unknown;
  groups: unknown;
}

/** Checks the fields (errors name them as `names` says, after `where`) and builds the spec. */
function buildSpec(
  where: string,
  fields: SpecFields,
  names: Record<keyof SpecFields, string>,
): ConnectorSpec {
  const need = (key: keyof SpecFields): string => {
    const value = fields[key];
    if (value === undefined || value === null || value === '') {
      throw new UsageError(`${where}missing ${names[key]}`);
    }
    if (typeof value !== 'string') {
      throw new UsageError(
        `${where}${names[key]}: expected a string, got ${describeJsonType(value)}`,
      );
    }
    return value;
  };
  const name = need('name');
  const source = checkSource(`${where}${names.source}`, need('source'));
  if (!isPlainObject(fields.config)) {
    throw new UsageError(
      fields.config === undefined
        ? `${where}missing ${names.config}`
        : `${where}${names.config}: expected a JSON object, got ${describeJsonType(fields.config)}`,
    );
  }
  const inputType = checkEnum(
    `${where}${names.inputType}`,
    typeof fields.inputType === 'string' ? fields.inputType : 'poll',
    inputTypes(),
    { what: 'input type' },
  );
  const accessType = checkEnum(
    `${where}${names.accessType}`,
    typeof fields.accessType === 'string' ? fields.accessType : 'public',
    accessTypes(),
    { what: 'access type' },
  );
  const seconds = (key: 'refreshFreq' | 'pruneFreq'): number | undefined => {
    const value = fields[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
    throw new UsageError(
      `${where}${names[key]}: expected a whole number of seconds ≥ 0, got ${JSON.stringify(value)}`,
    );
  };
  const refresh = seconds('refreshFreq');
  const prune = seconds('pruneFreq');
  const credential = credentialOf(fields.credential, `${where}${names.credential}`);
  const groups = fields.groups ?? [];
  if (
    !Array.isArray(groups) ||
    !groups.every((g) => (typeof g === 'string' && g !== '') || Number.isInteger(g))
  ) {
    throw new UsageError(
      `${where}${names.groups}: expected a list of group names or ids, got ${JSON.stringify(groups)}`,
    );
  }
  const connector = {
    name,
    source,
    input_type: inputType,
    access_type: accessType,
    connector_specific_config: fields.config,
    ...(refresh === undefined ? {} : { refresh_freq: refresh }),
    ...(prune === undefined ? {} : { prune_freq: prune }),
  } as ConnectorCreateRequest;
  return { connector, credential, groups: groups.map(String) };
}

const FLAG_NAMES = {
  name: '--name',
  source: '--source',
  config: '--config',
  inputType: '--input-type',
  accessType: '--access',
  refreshFreq: '--refresh-freq',
  pruneFreq: '--prune-freq',
  credential: '--credential',
  groups: '--group',
} as const;

/** `--for-ingestion`: an ingestion pair named `--name` (or after the source and the time). */
async function createForIngestion(
  ctx: Context,
  options: ConnectorCreateOptions,
): Promise<ExitCodeValue> {
  for (const [key, flag] of NOT_WITH_FOR_INGESTION) {
    // commander gives --credential its default: only another value is a conflict
    const given = key === 'credential' ? options.credential !== 'auto' : options[key] !== undefined;
    if (given && options[key] !== undefined) {
      throw new UsageError(
        `--for-ingestion: cannot be used with ${flag} (it sets up an ${PUSH_ONLY_SOURCE} connector, its config, frequencies and credential itself)`,
      );
    }
  }
  if ((options.set ?? []).length > 0) {
    throw new UsageError('--for-ingestion: cannot be used with --set (its config is {})');
  }
  const spec = buildSpec(
    '',
    {
      name: options.name ?? defaultName(PUSH_ONLY_SOURCE),
      source: PUSH_ONLY_SOURCE,
      config: {},
      inputType: 'load_state',
      accessType: options.access ?? options.accessType,
      refreshFreq: undefined,
      pruneFreq: undefined,
      credential: DEFAULT_CREDENTIAL_ID,
      groups: options.group,
    },
    flagNames(options),
  );
  const client = await ctx.client();
  const { name, access_type, groups } = await connectorToCreate(ctx, client, options, spec);
  const result = await client.setupIngestionPair({
    name,
    access_type,
    ...(groups && groups.length > 0 ? { groups } : {}),
  });
  ctx.out.result(
    {
      connector_id: result.connectorId,
      credential_id: result.credentialId,
      cc_pair_id: result.ccPairId,
    },
    [
      `Created connector "${name}" (source ${PUSH_ONLY_SOURCE}): a pair to push into, which no connector run or prune empties`,
      `  connector_id:  ${result.connectorId}`,
      `  credential_id: ${result.credentialId}`,
      `  cc_pair_id:    ${result.ccPairId ?? '(not returned by the server)'}`,
    ],
  );
  return ExitCode.Ok;
}

/** The flag names errors use: each as it was typed (`--access-type`, the former `--access`). */
function flagNames(options: ConnectorCreateOptions): Record<keyof typeof FLAG_NAMES, string> {
  return options.access === undefined && options.accessType !== undefined
    ? { ...FLAG_NAMES, accessType: '--access-type' }
    : FLAG_NAMES;
}

/** The connector of `spec`, its name checked as free and its groups given as ids. */
async function connectorToCreate(
  ctx: Context,
  client: KisClient,
  options: ConnectorCreateOptions,
  spec: ConnectorSpec,
): Promise<ConnectorSpec['connector']> {
  const refusal = await nameTaken(takenNames(ctx, client, options), spec, FLAG_NAMES.name);
  if (refusal !== undefined) throw new UsageError(refusal);
  return (await withGroupIds(spec, groupListing(client))).connector;
}

/**
 * The spec with its groups as ids, read from the group listing (once, on first use): none
 * listed is no call, and a server without groups refuses the listing with its reason.
 */
async function withGroupIds(
  spec: ConnectorSpec,
  groups: () => Promise<UserGroup[]>,
): Promise<ConnectorSpec> {
  if (spec.groups.length === 0) return spec;
  const ids = findAllNamed('user group', spec.groups, await groups()).map((g) => g.id);
  return { ...spec, connector: { ...spec.connector, groups: ids } };
}

/** The group listing, read once. */
function groupListing(client: KisClient): () => Promise<UserGroup[]> {
  let listed: Promise<UserGroup[]> | undefined;
  return () => {
    listed ??= client.userGroups.list({ includeDefault: true });
    return listed;
  };
}

export async function runConnectorCreate(
  ctx: Context,
  options: ConnectorCreateOptions,
): Promise<ExitCodeValue> {
  if (options.forIngestion === true) return createForIngestion(ctx, options);
  if (options.from !== undefined) return createFromFile(ctx, options.from, options);
  if (options.source === undefined) {
    throw new UsageError(
      'connector create: missing required option --source (or --from FILE to create connectors from a list)',
    );
  }
  const source = checkSource(FLAG_NAMES.source, options.source);
  const given =
    options.config === undefined ? {} : await readObjectArg('--config', options.config, ctx.io.cwd);
  const { config, filled } = configFromSets(source, options.set ?? [], given);
  if (filled.length > 0) ctx.out.info(`defaults filled in: ${filled.join(', ')}`);
  const spec = buildSpec(
    '',
    {
      name: options.name ?? defaultName(source),
      source,
      config,
      inputType: options.inputType,
      accessType: options.access ?? options.accessType,
      refreshFreq: options.refreshFreq,
      pruneFreq: options.pruneFreq,
      credential: options.credential,
      groups: options.group,
    },
    flagNames(options),
  );
  const client = await ctx.client();
  const connector = await connectorToCreate(ctx, client, options, spec);
  const result = await client.setupConnector({ connector, credential: spec.credential });
  const warning = pruneWarning(spec.connector.source);
  if (warning !== undefined) ctx.out.warn(warning);
  ctx.out.result(
    {
      connector_id: result.connectorId,
      credential_id: result.credentialId,
      cc_pair_id: result.ccPairId,
      access_type: connector.access_type,
      groups: connector.groups ?? [],
    },
    [
      `Created connector "${spec.connector.name}" (source ${spec.connector.source})`,
      `  connector_id:  ${result.connectorId}`,
      `  credential_id: ${result.credentialId}`,
      `  cc_pair_id:    ${result.ccPairId ?? '(not returned by the server)'}`,
      `  access:        ${connector.access_type}${(connector.groups ?? []).length > 0 ? `, groups ${spec.groups.join(', ')}` : ''}`,
    ],
  );
  return ExitCode.Ok;
}

/** The entries of a `--from` file: a list, or an object with a `connectors` list. */
async function readConnectorList(path: string, cwd: string): Promise<unknown[]> {
  const text = await readTextFile('--from', path, cwd);
  let parsed: unknown;
  try {
    parsed = await parseByExtension(path, text);
  } catch (error) {
    throw new UsageError(`--from: ${path}: ${oneLine(error)}`);
  }
  const list =
    isPlainObject(parsed) && Array.isArray(parsed.connectors) ? parsed.connectors : parsed;
  if (!Array.isArray(list)) {
    throw new UsageError(
      `--from: ${path}: expected a list of connectors (or {"connectors": [...]}), got ${describeJsonType(parsed)}`,
    );
  }
  if (list.length === 0) throw new UsageError(`--from: ${path}: the list of connectors is empty`);
  return list;
}

function entryField(entry: Record<string, unknown>, ...keys: string[]): unknown {
  for (const key of keys) if (entry[key] !== undefined) return entry[key];
  return undefined;
}

/** `--set`, `--name` and `--config` describe one connector: not with `--from`. */
function checkFlagsWithFrom(defaults: ConnectorCreateOptions): void {
  if ((defaults.set ?? []).length > 0) {
    throw new UsageError(
      'connector create: --set cannot be used with --from (give the config in the file)',
    );
  }
  for (const key of ['name', 'config'] as const) {
    if (defaults[key] !== undefined) {
      throw new UsageError(
        `connector create: ${FLAG_NAMES[key]} cannot be used with --from (give it in the file)`,
      );
    }
  }
}

/** The keys of a `--from` entry, named in its errors. */
const ENTRY_KEYS = {
  name: 'name',
  source: 'source',
  config: 'connector_specific_config',
  inputType: 'input_type',
  accessType: 'access_type',
  refreshFreq: 'refresh_freq',
  pruneFreq: 'prune_freq',
  credential: 'credential',
  groups: 'groups',
} as const;

/** One `--from` entry's spec: its keys (snake_case, kebab-case or camelCase), else the flags. */
function entrySpec(
  entry: Record<string, unknown>,
  where: string,
  defaults: ConnectorCreateOptions,
): ConnectorSpec {
  return buildSpec(
    where,
    {
      name: entry.name,
      source: entryField(entry, 'source') ?? defaults.source,
      config: entryField(entry, 'connector_specific_config', 'config'),
      inputType: entryField(entry, 'input_type', 'input-type', 'inputType') ?? defaults.inputType,
      accessType:
        entryField(entry, 'access_type', 'access-type', 'accessType') ??
        defaults.access ??
        defaults.accessType,
      refreshFreq:
        entryField(entry, 'refresh_freq', 'refresh-freq', 'refreshFreq') ?? defaults.refreshFreq,
      pruneFreq: entryField(entry, 'prune_freq', 'prune-freq', 'pruneFreq') ?? defaults.pruneFreq,
      credential:
        entryField(entry, 'credential', 'credential_id', 'credentialId') ?? defaults.credential,
      groups: entryField(entry, 'groups') ?? defaults.group,
    },
    ENTRY_KEYS,
  );
}

/**
 * Creates every connector of a `--from` list; a bad entry is reported and the others go on. A
 * name a pair already has, or an earlier entry of the file, is a bad entry.
 */
async function createFromFile(
  ctx: Context,
  path: string,
  defaults: ConnectorCreateOptions,
): Promise<ExitCodeValue> {
  checkFlagsWithFrom(defaults);
  const list = await readConnectorList(path, ctx.io.cwd);
  const { out } = ctx;
  const client: KisClient = await ctx.client();
  const taken = takenNames(ctx, client, defaults);
  const groups = groupListing(client);
  /** Each name of the file, with the first entry (1-based) that has it. */
  const firstWith = new Map<string, number>();
  let created = 0;
  let failed = 0;
  for (const [i, entry] of list.entries()) {
    const label = `entry ${i + 1}`;
    const where = `${path}: ${label}: `;
    let name: string | undefined;
    try {
      if (!isPlainObject(entry)) {
        throw new UsageError(`${where}expected an object, got ${describeJsonType(entry)}`);
      }
      name = typeof entry.name === 'string' ? entry.name : undefined;
      const spec = entrySpec(entry, name ? `${path}: ${label} ("${name}"): ` : where, defaults);
      const first = firstWith.get(spec.connector.name);
      if (first === undefined) firstWith.set(spec.connector.name, i + 1);
      const refusal =
        (await nameTaken(taken, spec, 'name')) ??
        (first === undefined || defaults.allowDuplicateName === true
          ? undefined
          : `name: entry ${first} of the file has the name "${spec.connector.name}" too, and commands that take a name would then fit both; rename one, or pass --allow-duplicate-name`);
      if (refusal !== undefined) throw new UsageError(refusal);
      const { connector } = await withGroupIds(spec, groups);
      const result = await client.setupConnector({ connector, credential: spec.credential });
      created++;
      const warning = pruneWarning(spec.connector.source);
      if (warning !== undefined) out.warn(`${spec.connector.name}: ${warning}`);
      out.result(
        {
          name: spec.connector.name,
          connector_id: result.connectorId,
          credential_id: result.credentialId,
          cc_pair_id: result.ccPairId,
        },
        `ok    ${spec.connector.name}: connector_id ${result.connectorId}, credential_id ${result.credentialId}, cc_pair_id ${result.ccPairId ?? '(not returned)'}`,
      );
    } catch (error) {
      const failure = describeFailure(error, client.baseUrl);
      if (error instanceof CliError && error.exitCode === ExitCode.Usage) {
        // A bad entry: reported, the others go on.
      } else if (failure.fatal) {
        throw error;
      }
      failed++;
      const message = failure.message.startsWith(path)
        ? failure.message
        : `${path}: ${label}${name ? ` ("${name}")` : ''}: ${failure.message}`;
      out.result(
        { ...(name ? { name } : {}), entry: i + 1, error: message },
        `${out.out.red('fail')}  ${message}`,
      );
    }
  }
  out.result(
    { summary: { created, failed, total: list.length } },
    `Created ${created} of ${list.length} connector(s)${failed > 0 ? `, ${failed} failed` : ''}.`,
  );
  return failed > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
}
