/**
 * The emulator's settings: `startEmulator`'s options checked (a RangeError naming the option),
 * with their defaults and what follows from them (the server kind, edition and version played).
 */
import {
  DEFAULT_EDITION,
  DEFAULT_INDEX_BACKEND,
  type DeployedLine,
  EDITIONS,
  type Edition,
  INDEX_BACKENDS,
  type IndexBackend,
  KIND_RELEASES,
  type Profile,
  parseReleaseNumber,
  type ServerKind,
} from '@kis/rules';
import type { EmulatorOptions } from '../../options.js';
import { packageVersion } from '../../version.js';
import { checkKeyFormat, generateKey } from '../auth.js';
import { type FaultPlan, parseFaults, seededRandom } from '../faults.js';
import { parseProfile, parseRelease, serverKind } from '../profile.js';
import { DEFAULT_TIMING } from '../tasks/pair-tasks.js';

/** Milliseconds each phase of a pair's deletion (waiting, cleaning up) lasts at least. */
export const DEFAULT_DELETION_DELAY_MS = 30;

export interface EmulatorSettings {
  host: string;
  dbPath: string;
  adminKey: string;
  userKeys: string[];
  curatorKeys: string[];
  profile: Profile;
  release: DeployedLine | undefined;
  kind: ServerKind;
  edition: Edition;
  indexBackend: IndexBackend;
  /** The release number the server plays (`/version`, the version rules). */
  serverVersion: string | undefined;
  /** What `GET /version` answers. */
  version: string;
  now: () => Date;
  faults: FaultPlan | undefined;
  random: () => number;
  logError: (error: unknown) => void;
  /** The background work's timing. */
  timing: ReturnType<typeof taskTiming>;
}

function checkOptions(options: EmulatorOptions): void {
  const { port, maxBodyBytes, latencyMs } = options;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new RangeError(`port must be an integer from 0 to 65535 (got ${port})`);
  }
  if (maxBodyBytes !== undefined && !(Number.isInteger(maxBodyBytes) && maxBodyBytes > 0)) {
    throw new RangeError(`maxBodyBytes must be a positive integer (got ${maxBodyBytes})`);
  }
  if (latencyMs !== undefined && !(Number.isFinite(latencyMs) && latencyMs >= 0)) {
    throw new RangeError(`latencyMs must be a number >= 0 (got ${latencyMs})`);
  }
  for (const [name, value, min] of [
    ['capacity', options.capacity, 1],
    ['queue', options.queue, 0],
    ['seed', options.seed, 0],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= min)) {
      throw new RangeError(`${name} must be an integer >= ${min} (got ${value})`);
    }
  }
  if (options.adminKey !== undefined) checkKeyFormat(options.adminKey, 'adminKey');
  const profile = parseProfile(options.profile, 'profile');
  parseRelease(options.release, profile, 'release');
  if (options.edition !== undefined && !EDITIONS.includes(options.edition)) {
    throw new RangeError(
      `edition must be one of ${EDITIONS.join(', ')} (got ${JSON.stringify(options.edition)})`,
    );
  }
  if (options.indexBackend !== undefined && !Object.hasOwn(INDEX_BACKENDS, options.indexBackend)) {
    throw new RangeError(
      `indexBackend must be one of ${Object.keys(INDEX_BACKENDS).join(', ')} (got ${JSON.stringify(options.indexBackend)})`,
    );
  }
  if (options.serverVersion !== undefined) {
    if (profile !== 'deployed') {
      throw new RangeError(
        'serverVersion needs the deployed profile (the seed profile plays no release)',
      );
    }
    if (parseReleaseNumber(options.serverVersion) === undefined) {
      throw new RangeError(
        `serverVersion must be a release number such as 3.2.16 (got ${JSON.stringify(options.serverVersion)})`,
      );
    }
  }
}

/** The background work's timing from the options. */
function taskTiming(options: EmulatorOptions) {
  return {
    startDelayMs: options.tasks?.startDelayMs ?? DEFAULT_TIMING.startDelayMs,
    durationMs: options.tasks?.durationMs ?? DEFAULT_TIMING.durationMs,
    pruneMs: options.tasks?.pruneMs ?? DEFAULT_TIMING.pruneMs,
    syncMs: options.tasks?.syncMs ?? DEFAULT_TIMING.syncMs,
    portMs: options.tasks?.portMs ?? DEFAULT_TIMING.portMs,
    deletionDelayMs: options.deletionDelayMs ?? DEFAULT_DELETION_DELAY_MS,
  };
}

export function emulatorSettings(options: EmulatorOptions): EmulatorSettings {
  checkOptions(options);
  const profile = parseProfile(options.profile, 'profile');
  const release = parseRelease(options.release, profile, 'release');
  const kind = serverKind(profile, release);
  const played = options.serverVersion?.replace(/^v/, '');
  const releaseNote = release === 'v4.6.1' ? `, release ${release.slice(1)}` : '';
  return {
    host: options.host ?? '127.0.0.1',
    dbPath: options.dbPath ?? ':memory:',
    adminKey: options.adminKey ?? generateKey('admin'),
    userKeys: [...(options.userKeys ?? [])],
    curatorKeys: [...(options.curatorKeys ?? [])],
    profile,
    release,
    kind,
    edition: options.edition ?? DEFAULT_EDITION[profile],
    indexBackend: options.indexBackend ?? DEFAULT_INDEX_BACKEND,
    serverVersion: played ?? KIND_RELEASES[kind],
    version:
      played === undefined
        ? `kis-emulator ${packageVersion()} (${profile}${releaseNote})`
        : `v${played}`,
    now: options.now ?? (() => new Date()),
    faults: typeof options.faults === 'string' ? parseFaults(options.faults) : options.faults,
    random: seededRandom(options.seed ?? Math.floor(Math.random() * 2 ** 32)),
    logError:
      options.logError ??
      ((error: unknown) => console.error('kis-emulator: internal error', error)),
    timing: taskTiming(options),
  };
}
