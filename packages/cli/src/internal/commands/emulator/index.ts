/**
 * `kis emulator`: the local emulator (@kis/emulator), an optional peer of the CLI (see
 * optional-emulator.ts). The command's flags are the emulator's own (the same as
 * `kis-emulator`'s), read from it when this module is built: the program loads it only when the
 * command line runs `kis emulator` or may list the commands (command-table.ts), so the other
 * commands do not pay for loading the emulator (a server, SQLite, the spec's validators).
 */
import type { Emulator, EmulatorFlag, EmulatorFlagValues, EmulatorOptions } from '@kis/emulator';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue, oneLine, UsageError } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { type InterruptSource, nextInterrupt } from '../../interrupts.js';
import { findEmulator, loadEmulator } from '../../optional-emulator.js';

/** The `kis emulator` flags: @kis/emulator's own (`EMULATOR_FLAGS`), by their camelCase key. */
export type EmulatorCommandOptions = EmulatorFlagValues;

/**
 * `kis emulator` with @kis/emulator's flags; without @kis/emulator, it takes any flags, so that
 * it still runs to say how to get it.
 */
export async function emulatorCommand({ act, interrupts, command }: CommandEnv): Promise<Command> {
  const emulatorCmd = command('emulator')
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
    .action(act((ctx, options: EmulatorCommandOptions) => runEmulator(ctx, options, interrupts)));
  const emulator = await findEmulator();
  if (emulator) addEmulatorFlags(emulatorCmd, emulator.EMULATOR_FLAGS);
  else emulatorCmd.allowUnknownOption(true).allowExcessArguments(true);
  return emulatorCmd;
}

/** Adds @kis/emulator's own flags (the same as `kis-emulator`'s) to `command`. */
function addEmulatorFlags(command: Command, flags: readonly EmulatorFlag[]): void {
  for (const flag of flags) {
    const spec = `--${flag.name}${flag.value === undefined ? '' : ` <${flag.value.toLowerCase()}>`}`;
    // No commander default: the launcher applies the same defaults as `kis-emulator`.
    if (flag.multiple) {
      command.option(spec, flag.help, (v: string, previous?: string[]) => [...(previous ?? []), v]);
    } else {
      command.option(spec, flag.help);
    }
  }
}

/**
 * `kis emulator`: starts the local emulator (@kis/emulator) in this process and runs until
 * Ctrl-C or SIGTERM, with the same flags and defaults as `kis-emulator`. The admin key is
 * --admin-key, else the CLI's own key (--api-key, --api-key-file, KIS_API_KEY), else
 * KIS_EMULATOR_ADMIN_KEY, else a generated development key, which is then printed (the only way
 * to learn it).
 */
export async function runEmulator(
  ctx: Context,
  options: EmulatorCommandOptions,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const { out, io } = ctx;
  const { EmulatorUsageError, emulatorLaunch, startEmulator } = await loadEmulator();
  const cliKey = options.adminKey === undefined ? await cliAdminKey(ctx) : undefined;
  let launch: ReturnType<typeof emulatorLaunch>;
  try {
    launch = emulatorLaunch(options, { env: io.env, cwd: io.cwd, adminKey: cliKey });
  } catch (error) {
    if (error instanceof EmulatorUsageError) throw new UsageError(error.message);
    throw error;
  }
  const keySource = launch.adminKeySource;
  const emulatorOptions: EmulatorOptions = {
    ...launch.options,
    logError: (error) => out.error(`emulator: ${oneLine(error)}`),
  };
  if (launch.logRequests) emulatorOptions.logRequest = (line) => io.stderr.write(`${line}\n`);
  const { port, host } = emulatorOptions;
  let emulator: Emulator;
  try {
    emulator = await startEmulator(emulatorOptions);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE') {
      throw new UsageError(
        `--port: port ${port} on ${host} is already in use; pick another (0 picks a free one)`,
      );
    }
    if (keySource !== undefined && /key/i.test(oneLine(error))) {
      throw new UsageError(`${keySource}: ${oneLine(error)}`);
    }
    throw new UsageError(`emulator: ${oneLine(error)}`);
  }
  // Listen for Ctrl-C / SIGTERM before saying "ready", so that a signal sent as soon as the
  // ready line is read stops the emulator cleanly.
  const stopped = nextInterrupt(interrupts);
  printReady(ctx, emulator, keySource, emulatorOptions.latencyMs ?? 0);
  await stopped;
  await emulator.close();
  out.info('kis emulator stopped');
  return ExitCode.Ok;
}

/** The CLI's own key (--api-key, --api-key-file, KIS_API_KEY) and where it came from, if given. */
async function cliAdminKey(ctx: Context): Promise<{ key: string; source: string } | undefined> {
  const g = ctx.options;
  if (g.apiKey === undefined && g.apiKeyFile === undefined && !ctx.io.env.KIS_API_KEY) {
    return undefined;
  }
  return {
    key: await ctx.apiKey(),
    source:
      g.apiKey !== undefined
        ? '--api-key'
        : g.apiKeyFile !== undefined
          ? '--api-key-file'
          : 'KIS_API_KEY',
  };
}

/** "kis emulator ready at …", and how to use it; a generated admin key is printed (only here). */
function printReady(
  ctx: Context,
  emulator: Emulator,
  keySource: string | undefined,
  latencyMs: number,
): void {
  const generated = keySource === undefined;
  ctx.out.result(
    {
      base_url: emulator.baseUrl,
      profile: emulator.profile,
      admin_key_source: keySource ?? 'generated',
      ...(generated ? { admin_key: emulator.adminKey } : {}),
      db: emulator.dbPath,
      latency_ms: latencyMs,
      pid: process.pid,
    },
    [
      `kis emulator ready at ${emulator.baseUrl}`,
      `  profile:   ${emulator.profile}`,
      generated
        ? `  admin key: ${emulator.adminKey}  (development key, new at each start)`
        : `  admin key: from ${keySource}`,
      `  database:  ${emulator.dbPath}`,
      ...(latencyMs ? [`  latency:   ${latencyMs} ms per ingestion request`] : []),
      'Use it from another shell:',
      `  export KIS_BASE_URL=${emulator.baseUrl}`,
      ...(generated ? [`  export KIS_API_KEY=${emulator.adminKey}`] : []),
      'Press Ctrl-C to stop.',
    ],
  );
}
