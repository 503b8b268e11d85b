import type { EmulatorFlagValues, EmulatorOptions } from '@kis/emulator';
import type { Context } from '../context.js';
import { ExitCode, type ExitCodeValue, oneLine, UsageError } from '../errors.js';
import type { InterruptSource } from '../interrupts.js';
import { loadEmulator } from '../optional-emulator.js';

/** The `kis emulator` flags: @kis/emulator's own (`EMULATOR_FLAGS`), by their camelCase key. */
export type EmulatorCommandOptions = EmulatorFlagValues;

/**
 * `kis emulator`: starts the local emulator (@kis/emulator) in this process and runs until
 * Ctrl-C or SIGTERM, with the same flags and defaults as `kis-emulator`. The admin key is
 * --admin-key, else the CLI's own key (--api-key, --api-key-file, KIS_API_KEY), else
 * KIS_EMULATOR_ADMIN_KEY, else a generated development key, which is then printed (the only way
 * to learn it).
 */
export async function emulatorCommand(
  ctx: Context,
  options: EmulatorCommandOptions,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const { out, io } = ctx;
  const { EmulatorUsageError, emulatorLaunch, startEmulator } = await loadEmulator();
  let cliKey: { key: string; source: string } | undefined;
  const g = ctx.options;
  if (
    options.adminKey === undefined &&
    (g.apiKey !== undefined || g.apiKeyFile !== undefined || io.env.KIS_API_KEY)
  ) {
    cliKey = {
      key: await ctx.apiKey(),
      source:
        g.apiKey !== undefined
          ? '--api-key'
          : g.apiKeyFile !== undefined
            ? '--api-key-file'
            : 'KIS_API_KEY',
    };
  }
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
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
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
  const stopped = new Promise<void>((resolveStop) => {
    const stop = () => {
      interrupts.off('SIGINT', stop);
      interrupts.off('SIGTERM', stop);
      resolveStop();
    };
    interrupts.on('SIGINT', stop);
    interrupts.on('SIGTERM', stop);
  });
  const generated = keySource === undefined;
  const latencyMs = emulatorOptions.latencyMs ?? 0;
  out.result(
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
  await stopped;
  await emulator.close();
  out.info('kis emulator stopped');
  return ExitCode.Ok;
}
