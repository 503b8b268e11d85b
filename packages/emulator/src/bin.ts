// `kis-emulator`: starts the emulator and prints its base URL (and the generated development
// admin key) once it accepts connections. The key is printed only here, at start. The flags are
// the shared launcher's (`launcher.ts`), the same as `kis emulator`'s.
import { parseArgs } from 'node:util';
import { type Emulator, startEmulator } from './emulator.js';
import {
  EMULATOR_FLAGS,
  type EmulatorFlagValues,
  EmulatorUsageError,
  emulatorLaunch,
  flagHelp,
  readyReport,
} from './launcher.js';
import { packageVersion } from './version.js';

const HELP = `Usage: kis-emulator [options]

A local, stateful emulator of the Knowledge Indexing Service API (SQLite).

Options:
${flagHelp([
  { flag: '--json', help: 'print the ready line as one JSON object' },
  { flag: '-h, --help', help: 'show this help' },
  { flag: '-v, --version', help: 'show the version' },
])}
`;

function parse(argv: string[]) {
  const options: Record<
    string,
    { type: 'string' | 'boolean'; short?: string; multiple?: boolean }
  > = {
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  };
  for (const flag of EMULATOR_FLAGS) {
    options[flag.name] =
      flag.value === undefined
        ? { type: 'boolean' }
        : { type: 'string', multiple: flag.multiple === true };
  }
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options }).values;
  } catch (error) {
    throw new EmulatorUsageError((error as Error).message);
  }
}

async function main(argv: string[]): Promise<void> {
  const values = parse(argv);
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  if (values.version) {
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }
  const byKey: Record<string, unknown> = {};
  for (const flag of EMULATOR_FLAGS) byKey[flag.key] = values[flag.name];
  const launch = emulatorLaunch(byKey satisfies EmulatorFlagValues, {
    env: process.env,
    cwd: process.cwd(),
  });
  const { options } = launch;
  if (launch.logRequests) options.logRequest = (line) => process.stdout.write(`${line}\n`);

  let emulator: Emulator;
  try {
    emulator = await startEmulator(options);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') {
      throw new EmulatorUsageError(
        `port ${options.port} on ${options.host} is already in use (--port)`,
      );
    }
    if (e instanceof RangeError) throw new EmulatorUsageError(e.message);
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

  const report = readyReport(emulator, launch);
  process.stdout.write(
    values.json ? `${JSON.stringify(report.json)}\n` : `${report.lines.join('\n')}\n`,
  );
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof EmulatorUsageError) {
    process.stderr.write(`kis-emulator: ${error.message}\nRun kis-emulator --help for usage.\n`);
    process.exit(2);
  }
  process.stderr.write(`kis-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
