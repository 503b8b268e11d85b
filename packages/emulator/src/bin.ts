// `kis-emulator`: starts the emulator and prints its base URL (and the generated development
// admin key) once it accepts connections. The key is printed only here, at start.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_MAX_BODY_BYTES, type EmulatorOptions, startEmulator } from './emulator.js';
import { checkKeyFormat } from './internal/auth.js';

const HELP = `Usage: kis-emulator [options]

A local, stateful emulator of the Knowledge Indexing Service API (SQLite).

Options:
  --port N              TCP port (default 8080; 0 picks a free port)
  --host HOST           interface to listen on (default 127.0.0.1)
  --db FILE             SQLite database file (default ./kis-emulator.db; ":memory:" for none)
  --admin-key KEY       admin API key (default: $KIS_EMULATOR_ADMIN_KEY, else a random key
                        printed at start)
  --user-key KEY        a non-admin API key; repeat for several (also $KIS_EMULATOR_USER_KEY,
                        comma-separated)
  --max-body-bytes N    largest accepted request body (default ${DEFAULT_MAX_BODY_BYTES}); 413 above
  --latency-ms N        added service time per ingestion request (default 0)
  --cors-origin ORIGIN  allow browser calls from ORIGIN (repeatable; "*" for any); off by default
  --index-interval-ms N milliseconds between indexing batches (default 5)
  --log-requests        print one line per request (method, path, status, time)
  --json                print the ready line as one JSON object
  -h, --help            show this help
  -v, --version         show the version
`;

class UsageError extends Error {}

function intOption(name: string, value: string | undefined, min: number, max = 2 ** 53): number {
  if (value === undefined) throw new UsageError(`--${name} needs a value`);
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(
      `--${name} must be an integer from ${min} to ${max === 2 ** 53 ? 'any' : max} (got '${value}')`,
    );
  }
  return Number(value);
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  function parse() {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        db: { type: 'string' },
        'admin-key': { type: 'string' },
        'user-key': { type: 'string', multiple: true },
        'max-body-bytes': { type: 'string' },
        'latency-ms': { type: 'string' },
        'cors-origin': { type: 'string', multiple: true },
        'index-interval-ms': { type: 'string' },
        'log-requests': { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  }
  try {
    parsed = parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const v = parsed.values;
  if (v.help) {
    process.stdout.write(HELP);
    return;
  }
  if (v.version) {
    process.stdout.write(`${version()}\n`);
    return;
  }

  const env = process.env;
  const adminKeyGiven = v['admin-key'] ?? (env.KIS_EMULATOR_ADMIN_KEY || undefined);
  const userKeys = [
    ...(v['user-key'] ?? []),
    ...(env.KIS_EMULATOR_USER_KEY ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter((k) => k !== ''),
  ];
  const checkKey = (key: string, name: string) => {
    try {
      checkKeyFormat(key, name);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  };
  if (adminKeyGiven !== undefined) {
    checkKey(
      adminKeyGiven,
      v['admin-key'] !== undefined ? '--admin-key' : 'KIS_EMULATOR_ADMIN_KEY',
    );
  }
  for (const key of userKeys) checkKey(key, '--user-key / KIS_EMULATOR_USER_KEY');
  const db = v.db ?? 'kis-emulator.db';
  const options: EmulatorOptions = {
    port: v.port === undefined ? 8080 : intOption('port', v.port, 0, 65535),
    host: v.host ?? '127.0.0.1',
    dbPath: db === ':memory:' ? db : resolve(db),
    userKeys,
    maxBodyBytes:
      v['max-body-bytes'] === undefined
        ? DEFAULT_MAX_BODY_BYTES
        : intOption('max-body-bytes', v['max-body-bytes'], 1),
    latencyMs: v['latency-ms'] === undefined ? 0 : intOption('latency-ms', v['latency-ms'], 0),
    indexing: {
      intervalMs:
        v['index-interval-ms'] === undefined
          ? 5
          : intOption('index-interval-ms', v['index-interval-ms'], 1),
    },
    overrideGlobalObjects: true,
  };
  if (adminKeyGiven !== undefined) options.adminKey = adminKeyGiven;
  const origins = v['cors-origin'];
  if (origins !== undefined && origins.length > 0) {
    options.corsOrigin = origins.length === 1 ? origins[0]! : origins;
  }
  if (v['log-requests']) {
    options.logRequest = (line) => process.stdout.write(`${line}\n`);
  }

  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator(options);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') {
      throw new UsageError(`port ${options.port} on ${options.host} is already in use (--port)`);
    }
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw error;
  }

  // Handlers first: a signal sent as soon as the ready line is read must find them installed.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    emulator.close().then(
      () => {
        process.stderr.write(`kis-emulator: stopped (${signal})\n`);
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(`kis-emulator: error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const keySource =
    adminKeyGiven === undefined
      ? undefined
      : v['admin-key'] !== undefined
        ? '--admin-key'
        : 'KIS_EMULATOR_ADMIN_KEY';
  if (v.json) {
    process.stdout.write(
      `${JSON.stringify({
        ready: true,
        base_url: emulator.baseUrl,
        url: emulator.url,
        admin_key: keySource === undefined ? emulator.adminKey : null,
        admin_key_source: keySource ?? 'generated',
        user_keys: emulator.userKeys.length,
        db: emulator.dbPath,
        pid: process.pid,
      })}\n`,
    );
  } else {
    const lines = [
      'kis-emulator ready',
      `  base URL:   ${emulator.baseUrl}`,
      keySource === undefined
        ? `  admin key:  ${emulator.adminKey}  (development key, new at each start)`
        : `  admin key:  (from ${keySource})`,
      `  user keys:  ${emulator.userKeys.length}`,
      `  database:   ${emulator.dbPath}`,
      `  admin page: ${emulator.url}/`,
      `  state:      ${emulator.url}/_emulator/state`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`kis-emulator: ${error.message}\nRun kis-emulator --help for usage.\n`);
    process.exit(2);
  }
  process.stderr.write(`kis-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
