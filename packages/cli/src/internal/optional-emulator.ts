/**
 * `@kis/emulator` is an optional peer of the CLI: it brings a server and SQLite (a native build),
 * which a user of `kis ingest` against a real server does not need. `kis emulator` runs it when it
 * is installed and otherwise says how to get it.
 */
import { UsageError } from './errors.js';
import { isMissingPackage } from './missing-package.js';

type EmulatorModule = typeof import('@kis/emulator');

/** What to do without the emulator, in one line. */
export const EMULATOR_MISSING =
  'kis emulator needs the optional package @kis/emulator: run it with `npx @kis/emulator` (same flags), or install it beside the CLI (npm i @kis/emulator)';

/** What the CLI uses of the emulator: any 0.x release that has them will do (the peer's range). */
const USED = ['EMULATOR_FLAGS', 'EmulatorUsageError', 'emulatorLaunch', 'startEmulator'] as const;

/** The emulator module, or undefined when it is not installed. */
export async function findEmulator(): Promise<EmulatorModule | undefined> {
  let found: EmulatorModule;
  try {
    found = await import('@kis/emulator');
  } catch (error) {
    if (isMissingPackage(error, '@kis/emulator')) return undefined;
    throw error;
  }
  const lacking = USED.filter((name) => found[name] === undefined);
  if (lacking.length > 0) {
    throw new UsageError(
      `the installed @kis/emulator lacks ${lacking.join(', ')}, which this kis uses: update both (npm i @kis/cli@latest @kis/emulator@latest)`,
    );
  }
  return found;
}

/** The emulator module, or a usage error saying how to get it. */
export async function loadEmulator(): Promise<EmulatorModule> {
  const found = await findEmulator();
  if (found === undefined) throw new UsageError(EMULATOR_MISSING);
  return found;
}
