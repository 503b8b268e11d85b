/**
 * The `kis` program: the root command (global options, help, exit codes, output) composed of one
 * module per command (commands/), and {@link run}, which parses a command line with it.
 */
import { permissionFor, ROLES, roleAllows } from '@kis/rules';
import { Command, CommanderError } from 'commander';
import { type CommandEnv, createAct, type RunState } from './action.js';
import { applyCommand } from './commands/apply/index.js';
import { connectorCommand } from './commands/connector/index.js';
import { credentialCommand } from './commands/credential/index.js';
import { docsCommand } from './commands/docs/index.js';
import { doctorCommand } from './commands/doctor/index.js';
import { emulatorCommand, provideEmulatorFlags } from './commands/emulator/index.js';
import { exportCommand } from './commands/export/index.js';
import { ingestCommand } from './commands/ingest/index.js';
import { queueCommand } from './commands/queue/index.js';
import { sourcesCommand } from './commands/sources/index.js';
import { syncCommand } from './commands/sync/index.js';
import { uploadCommand } from './commands/upload/index.js';
import { workerCommand } from './commands/worker/index.js';
import { type Context, cliVersion, collectSecrets, redactingIo } from './context.js';
import { ExitCode, type ExitCodeValue, oneLine } from './errors.js';
import { describeFailure } from './failure.js';
import { EXAMPLES } from './help-text.js';
import type { InterruptSource } from './interrupts.js';
import { colorEnabled, type Io, painter } from './output.js';

/** Options of {@link run}: the process surroundings, replaceable in tests. */
export interface RunOptions {
  io?: Partial<Io>;
  /** Where SIGINT/SIGTERM come from (default: `process`). */
  interrupts?: InterruptSource;
}

/** The commands, in the order `kis --help` lists them. */
const COMMANDS: readonly ((env: CommandEnv) => Command)[] = [
  connectorCommand,
  credentialCommand,
  uploadCommand,
  ingestCommand,
  syncCommand,
  workerCommand,
  queueCommand,
  docsCommand,
  emulatorCommand,
  applyCommand,
  exportCommand,
  doctorCommand,
  sourcesCommand,
];

// What the help says about the service comes from the rule book (`@kis/rules`), never a copy.
/** The roles that may manage connectors and credentials on deployed servers: `curator or admin`. */
const MANAGING_ROLES = ROLES.filter((role) => roleAllows(role, 'curator')).join(' or ');
/** The main line's permission for connector and credential calls: `manage:connectors`. */
const MANAGING_PERMISSION = permissionFor('createConnector')?.permission ?? 'manage:connectors';
/** The highest role: `admin`. */
const TOP_ROLE = ROLES[ROLES.length - 1];

const ROOT_HELP_AFTER = `
Environment:
  KIS_BASE_URL   API root including /api, e.g. http://localhost:8080/api
  KIS_ALLOW_INSECURE_HTTP  1: allow a plain http:// base URL on another host (the key is readable on the way)
  KIS_API_KEY    API key. Connector and credential commands need the ${TOP_ROLE} role on servers
                 that follow the seed; release 4.6.1 takes ${MANAGING_ROLES}, and asks for it
                 on ingest and docs commands too; on the main line a key holds the grants of
                 its groups (${MANAGING_PERMISSION}). kis doctor shows what a key may use
  KIS_QUEUE      Redis URL of a queue (queue mode) for kis worker and kis queue, e.g. redis://127.0.0.1:6379/0
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
])}`;

/** Commander's multi-line errors ("…\n(Did you mean x?)") as one line. */
function oneLineCommanderError(text: string): string {
  return `${text
    .trim()
    .replace(/\s*\n\s*\(Did you mean (.*)\?\)/, ' (did you mean $1?)')
    .replace(/\s*\n\s*/g, ' ')}\n`;
}

/** `kis` without its commands: the global options, help and errors, written to `io`. */
function rootCommand(io: Io): Command {
  const errPaint = painter(colorEnabled(io.stderr, io.env));
  return new Command('kis')
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
    .addHelpText('after', ROOT_HELP_AFTER);
}

/**
 * Gives `command` and its subcommands the settings `parent.command()` would have copied to them
 * (output, help option, exit override, suggestions): commands built apart start without them.
 */
function inheritSettings(parent: Command, command: Command): Command {
  command.copyInheritedSettings(parent);
  for (const sub of command.commands) inheritSettings(command, sub);
  return command;
}

/** The whole `kis` program: the root command with every command of {@link COMMANDS}. */
export function createProgram(io: Io, env: CommandEnv): Command {
  const program = rootCommand(io);
  for (const build of COMMANDS) program.addCommand(inheritSettings(program, build(env)));
  return program;
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
  const state: RunState = { exitCode: ExitCode.Ok };
  const act = createAct(io, secrets, state);
  const program = createProgram(io, { act, interrupts: options.interrupts ?? process });
  try {
    await provideEmulatorFlags(program, argv);
    await program.parseAsync([...argv], { from: 'user' });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    }
    return reportFailure(error, io, state.ctx);
  }
}

/** An error that ended the command, on one line (with the stack under --verbose); its exit code. */
async function reportFailure(
  error: unknown,
  io: Io,
  ctx: Context | undefined,
): Promise<ExitCodeValue> {
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
