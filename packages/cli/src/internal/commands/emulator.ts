import { resolve } from 'node:path';
import { type EmulatorOptions, startEmulator } from '@kis/emulator';
import type { Context } from '../context.js';
import { ExitCode, type ExitCodeValue, oneLine, UsageError } from '../errors.js';
import type { InterruptSource } from './ingest.js';

export interface EmulatorCommandOptions {
  port: number;
  db: string;
  adminKey?: string;
  latencyMs?: number;
  logRequests?: boolean;
}

/**
 * `kis emulator`: starts the local emulator (@kis/emulator) in this process and runs until
 * Ctrl-C or SIGTERM. The admin key is --admin-key, else the CLI's own key (--api-key,
 * --api-key-file, KIS_API_KEY), else KIS_EMULATOR_ADMIN_KEY, else a generated development key,
 * which is then printed (the only way to learn it).
 */
export async function emulatorCommand(
  ctx: Context,
  options: EmulatorCommandOptions,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const { out, io } = ctx;
  let adminKey = options.adminKey;
  let keySource = adminKey === undefined ? undefined : '--admin-key';
  if (adminKey === undefined) {
    const g = ctx.options;
    if (g.apiKey !== undefined || g.apiKeyFile !== undefined || io.env.KIS_API_KEY) {
      adminKey = await ctx.apiKey();
      keySource =
        g.apiKey !== undefined
          ? '--api-key'
          : g.apiKeyFile !== undefined
            ? '--api-key-file'
            : 'KIS_API_KEY';
    } else if (io.env.KIS_EMULATOR_ADMIN_KEY) {
      adminKey = io.env.KIS_EMULATOR_ADMIN_KEY;
      keySource = 'KIS_EMULATOR_ADMIN_KEY';
    }
  }
  const db = options.db === ':memory:' ? options.db : resolve(io.cwd, options.db);
  const emulatorOptions: EmulatorOptions = {
    port: options.port,
    host: '127.0.0.1',
    dbPath: db,
    latencyMs: options.latencyMs ?? 0,
    overrideGlobalObjects: true,
    logError: (error) => out.error(`emulator: ${oneLine(error)}`),
  };
  if (adminKey !== undefined) emulatorOptions.adminKey = adminKey;
  if (options.logRequests) emulatorOptions.logRequest = (line) => io.stderr.write(`${line}\n`);
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator(emulatorOptions);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE') {
      throw new UsageError(
        `--port: port ${options.port} on 127.0.0.1 is already in use; pick another (0 picks a free one)`,
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
  out.result(
    {
      base_url: emulator.baseUrl,
      admin_key_source: keySource ?? 'generated',
      ...(generated ? { admin_key: emulator.adminKey } : {}),
      db: emulator.dbPath,
      latency_ms: options.latencyMs ?? 0,
      pid: process.pid,
    },
    [
      `kis emulator ready at ${emulator.baseUrl}`,
      generated
        ? `  admin key: ${emulator.adminKey}  (development key, new at each start)`
        : `  admin key: from ${keySource}`,
      `  database:  ${emulator.dbPath}`,
      ...(options.latencyMs ? [`  latency:   ${options.latencyMs} ms per ingestion request`] : []),
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
