/**
 * The `kis` program: the root command (global options, help, exit codes, output) and the table of
 * its commands, each module loaded only when the command line needs it (command-table.ts), and
 * {@link run}, which parses a command line with it.
 */
import { Command, CommanderError } from 'commander';
import { type CommandEnv, createAct, type RunState } from './action.js';
import { addCommands, type CommandEntry } from './command-table.js';
import type { Context } from './context.js';
import { ExitCode, type ExitCodeValue, oneLine } from './errors.js';
import type { InterruptSource } from './interrupts.js';
import { colorEnabled, type Io, painter } from './output.js';
import { collectSecrets, redactingIo } from './secrets.js';
import { cliVersion } from './version.js';

/** Options of {@link run}: the process surroundings, replaceable in tests. */
export interface RunOptions {
  io?: Partial<Io>;
  /** Where SIGINT/SIGTERM come from (default: `process`). */
  interrupts?: InterruptSource;
}

/** The commands, in the order `kis --help` lists them; a module is loaded when chosen. */
const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'connector',
    aliases: ['connectors'],
    load: async () => (await import('./commands/connector/index.js')).connectorCommand,
  },
  {
    name: 'credential',
    aliases: ['credentials'],
    load: async () => (await import('./commands/credential/index.js')).credentialCommand,
  },
  {
    name: 'group',
    aliases: ['groups'],
    load: async () => (await import('./commands/group/index.js')).groupCommand,
  },
  {
    name: 'docset',
    aliases: ['docsets'],
    load: async () => (await import('./commands/docset/index.js')).docsetCommand,
  },
  { name: 'upload', load: async () => (await import('./commands/upload/index.js')).uploadCommand },
  { name: 'ingest', load: async () => (await import('./commands/ingest/index.js')).ingestCommand },
  { name: 'sync', load: async () => (await import('./commands/sync/index.js')).syncCommand },
  { name: 'worker', load: async () => (await import('./commands/worker/index.js')).workerCommand },
  { name: 'queue', load: async () => (await import('./commands/queue/index.js')).queueCommand },
  { name: 'verify', load: async () => (await import('./commands/verify/index.js')).verifyCommand },
  {
    name: 'docs',
    aliases: ['doc'],
    load: async () => (await import('./commands/docs/index.js')).docsCommand,
  },
  {
    name: 'emulator',
    load: async () => (await import('./commands/emulator/index.js')).emulatorCommand,
  },
  { name: 'apply', load: async () => (await import('./commands/apply/index.js')).applyCommand },
  { name: 'export', load: async () => (await import('./commands/export/index.js')).exportCommand },
  { name: 'doctor', load: async () => (await import('./commands/doctor/index.js')).doctorCommand },
  {
    name: 'sources',
    load: async () => (await import('./commands/sources/index.js')).sourcesCommand,
  },
];

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
      'The command line of the Knowledge Indexing Service API: connectors and credentials (one at a time or from a kis.yaml file), who sees what they hold (user groups, document sets, pair access), image uploads, resumable bulk ingestion and folder sync.',
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
    });
}

/**
 * The `kis` program with the commands `argv` (the arguments after `kis`) needs, or all of them
 * when it is undefined.
 */
export async function createProgram(
  io: Io,
  env: Omit<CommandEnv, 'command'>,
  argv?: readonly string[],
): Promise<Command> {
  const program = rootCommand(io);
  const command = (name: string) => new Command(name).copyInheritedSettings(program);
  const loaded = await addCommands(program, COMMANDS, { ...env, command }, argv);
  // the root's help is printed only with every command loaded (help, no command, a typo)
  if (loaded === 'all')
    program.addHelpText('after', (await import('./root-help.js')).ROOT_HELP_AFTER);
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
  try {
    const program = await createProgram(
      io,
      { act, interrupts: options.interrupts ?? process },
      argv,
    );
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
  const { describeFailure } = await import('./failure.js');
  const failure = describeFailure(error, baseUrl);
  const paint = painter(colorEnabled(io.stderr, io.env) && ctx?.options.color !== false);
  io.stderr.write(`${paint.red('error:')} ${oneLine(failure.message)}\n`);
  if (ctx?.options.verbose && error instanceof Error && error.stack) {
    io.stderr.write(`${error.stack}\n`);
  }
  return failure.exitCode;
}
