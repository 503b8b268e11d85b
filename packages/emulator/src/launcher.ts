// The emulator's command-line options, shared by `kis-emulator` and `kis emulator`: one table of
// flags (same names, same defaults, same checks) and one parser from flag values to
// `EmulatorOptions`. Each launcher keeps its own output; the ready report is shared too.
import { resolve } from 'node:path';
import {
  DEFAULT_INDEX_BACKEND,
  EDITIONS,
  type Edition,
  INDEX_BACKENDS,
  type IndexBackend,
  PROFILES,
  parseReleaseNumber,
} from '@kis/rules';
import { DEFAULT_MAX_BODY_BYTES, type Emulator, type EmulatorOptions } from './emulator.js';
import { checkKeyFormat } from './internal/auth.js';
import { FaultSpecError, parseFaults } from './internal/faults.js';
import { parseProfile, parseRelease, RELEASE_NAMES } from './internal/profile.js';
import { ATTEMPT_OUTCOMES, parseAttemptOutcome } from './internal/tasks/outcomes.js';
import { DEFAULT_TIMING } from './internal/tasks/pair-tasks.js';

export interface EmulatorFlag {
  /** The flag without its dashes, e.g. `max-body-bytes`. */
  readonly name: string;
  /** The property the parsed value is read from (camelCase, as commander names it). */
  readonly key: string;
  /** The value's placeholder in help; absent for a switch. */
  readonly value?: string;
  /** May be given several times. */
  readonly multiple?: boolean;
  readonly help: string;
}

export const EMULATOR_DEFAULTS = Object.freeze({
  port: 8080,
  host: '127.0.0.1',
  db: 'kis-emulator.db',
  profile: 'seed',
  release: 'main',
  attempts: 'succeed',
  attemptMs: DEFAULT_TIMING.durationMs,
  indexIntervalMs: 5,
  edition: 'enterprise',
  indexBackend: DEFAULT_INDEX_BACKEND,
  syncMs: DEFAULT_TIMING.syncMs,
  portMs: DEFAULT_TIMING.portMs,
});

export const EMULATOR_FLAGS: readonly EmulatorFlag[] = Object.freeze([
  {
    name: 'port',
    key: 'port',
    value: 'N',
    help: `TCP port (default ${EMULATOR_DEFAULTS.port}; 0 picks a free port)`,
  },
  {
    name: 'host',
    key: 'host',
    value: 'HOST',
    help: `interface to listen on (default ${EMULATOR_DEFAULTS.host})`,
  },
  {
    name: 'db',
    key: 'db',
    value: 'FILE',
    help: `SQLite database file (default ./${EMULATOR_DEFAULTS.db}; ":memory:" for none)`,
  },
  {
    name: 'profile',
    key: 'profile',
    value: 'NAME',
    help: `server to play: ${PROFILES.join(' or ')} (default ${EMULATOR_DEFAULTS.profile}; deployed: the servers people run)`,
  },
  {
    name: 'release',
    key: 'release',
    value: 'NAME',
    help: `with --profile deployed, the line to play: ${RELEASE_NAMES.filter((n) => !n.startsWith('v')).join(' or ')} (default ${EMULATOR_DEFAULTS.release}; 4.6.1: keys with roles)`,
  },
  {
    name: 'admin-key',
    key: 'adminKey',
    value: 'KEY',
    help: 'admin API key (default: $KIS_EMULATOR_ADMIN_KEY, else a random key printed at start)',
  },
  {
    name: 'curator-key',
    key: 'curatorKey',
    value: 'KEY',
    multiple: true,
    help: 'a curator API key; repeat for several (also $KIS_EMULATOR_CURATOR_KEY, comma-separated)',
  },
  {
    name: 'user-key',
    key: 'userKey',
    value: 'KEY',
    multiple: true,
    help: 'a basic API key; repeat for several (also $KIS_EMULATOR_USER_KEY, comma-separated)',
  },
  {
    name: 'max-body-bytes',
    key: 'maxBodyBytes',
    value: 'N',
    help: `largest accepted request body (default ${DEFAULT_MAX_BODY_BYTES}); 413 above`,
  },
  {
    name: 'latency-ms',
    key: 'latencyMs',
    value: 'N',
    help: 'added service time per ingestion request (default 0)',
  },
  {
    name: 'faults',
    key: 'faults',
    value: 'SPEC',
    help: 'faults per ingestion call, e.g. "503=0.10,429=0.05,reset=0.01,reset-after-store=0.01,slow=0.01:30s"',
  },
  {
    name: 'seed',
    key: 'seed',
    value: 'N',
    help: 'seed of the fault draws (default: random; the same seed draws the same faults)',
  },
  {
    name: 'capacity',
    key: 'capacity',
    value: 'N',
    help: 'serve at most N API requests at once; more wait (default: no limit)',
  },
  {
    name: 'queue',
    key: 'queue',
    value: 'M',
    help: 'with --capacity: at most M requests wait, more get 503 (default: the capacity)',
  },
  {
    name: 'outage',
    key: 'outage',
    value: 'AFTER_S:FOR_S',
    help: 'refuse connections for FOR_S seconds, AFTER_S seconds after start',
  },
  {
    name: 'cors-origin',
    key: 'corsOrigin',
    value: 'ORIGIN',
    multiple: true,
    help: 'allow browser calls from ORIGIN (repeatable; "*" for any); off by default',
  },
  {
    name: 'index-interval-ms',
    key: 'indexIntervalMs',
    value: 'N',
    help: `milliseconds between indexing batches (default ${EMULATOR_DEFAULTS.indexIntervalMs})`,
  },
  {
    name: 'attempts',
    key: 'attempts',
    value: 'OUTCOME',
    help: `how index attempts end: ${ATTEMPT_OUTCOMES.join(', ')} (default ${EMULATOR_DEFAULTS.attempts})`,
  },
  {
    name: 'attempt-ms',
    key: 'attemptMs',
    value: 'N',
    help: `milliseconds an index attempt runs (default ${EMULATOR_DEFAULTS.attemptMs})`,
  },
  {
    name: 'edition',
    key: 'edition',
    value: 'NAME',
    help: `edition to play: ${EDITIONS.join(', ')} (default ${EMULATOR_DEFAULTS.edition}; community: no user groups)`,
  },
  {
    name: 'server-version',
    key: 'serverVersion',
    value: 'X.Y.Z',
    help: 'with --profile deployed, the release number to play and answer on /version (e.g. 3.2.16: already_existed inverted)',
  },
  {
    name: 'index-backend',
    key: 'indexBackend',
    value: 'NAME',
    help: `index to play where they differ: ${Object.keys(INDEX_BACKENDS).join(' or ')} (default ${EMULATOR_DEFAULTS.indexBackend})`,
  },
  {
    name: 'sync-ms',
    key: 'syncMs',
    value: 'N',
    help: `milliseconds a document set's or user group's sync takes (default ${EMULATOR_DEFAULTS.syncMs})`,
  },
  {
    name: 'port-ms',
    key: 'portMs',
    value: 'N',
    help: `milliseconds one port of a model switch takes (default ${EMULATOR_DEFAULTS.portMs})`,
  },
  {
    name: 'log-requests',
    key: 'logRequests',
    help: 'print one line per request (method, path, status, time)',
  },
]);

/**
 * Parsed flag values by `EmulatorFlag.key`: a string, a list of strings (`multiple`), or true for
 * a switch; anything else counts as not given.
 */
export type EmulatorFlagValues = Readonly<Record<string, unknown>>;

/** A flag or environment value the emulator cannot start with; the message names it. */
export class EmulatorUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmulatorUsageError';
  }
}

export interface EmulatorLaunch {
  /** Options for `startEmulator` (request lines are the launcher's to print: `logRequests`). */
  options: EmulatorOptions;
  /** Where the admin key came from (`--admin-key`, an environment variable...), or undefined when generated. */
  adminKeySource: string | undefined;
  logRequests: boolean;
}

export interface LaunchEnvironment {
  env: Readonly<Record<string, string | undefined>>;
  /** Directory a relative `--db` is resolved from. */
  cwd: string;
  /** The admin key to use when `--admin-key` is not given, before $KIS_EMULATOR_ADMIN_KEY. */
  adminKey?: { key: string; source: string };
}

function text(values: EmulatorFlagValues, key: string): string | undefined {
  const v = values[key];
  return typeof v === 'string' ? v : undefined;
}

function list(values: EmulatorFlagValues, key: string): string[] {
  const v = values[key];
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function integer(name: string, value: string | undefined, min: number, max?: number) {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || n < min || (max !== undefined && n > max)) {
    throw new EmulatorUsageError(
      `--${name} must be an integer from ${min} to ${max ?? 'any'} (got '${value}')`,
    );
  }
  return n;
}

function outage(value: string | undefined): EmulatorOptions['outage'] {
  if (value === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(value.trim());
  if (m === null) {
    throw new EmulatorUsageError(
      `--outage must be AFTER_S:FOR_S, two numbers of seconds such as 30:20 (got '${value}')`,
    );
  }
  return { afterMs: Number(m[1]) * 1000, forMs: Number(m[2]) * 1000 };
}

function faults(value: string | undefined): EmulatorOptions['faults'] {
  if (value === undefined) return undefined;
  try {
    return parseFaults(value);
  } catch (error) {
    if (error instanceof FaultSpecError) throw new EmulatorUsageError(error.message);
    throw error;
  }
}

/** Reads a flag's value with a parser that throws RangeError, as a usage error. */
function usage<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof RangeError) throw new EmulatorUsageError(error.message);
    throw error;
  }
}

/** A value among `allowed`, or a usage error naming the flag. */
function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new EmulatorUsageError(`--${name} must be one of ${allowed.join(', ')} (got "${value}")`);
}

function envList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
}

function checkKey(key: string, name: string): void {
  try {
    checkKeyFormat(key, name);
  } catch (error) {
    throw new EmulatorUsageError((error as Error).message);
  }
}

/** The emulator options the flag values ask for; throws `EmulatorUsageError` naming a bad flag. */
export function emulatorLaunch(
  values: EmulatorFlagValues,
  environment: LaunchEnvironment,
): EmulatorLaunch {
  const { env } = environment;
  const profile = usage(() =>
    parseProfile(text(values, 'profile') ?? EMULATOR_DEFAULTS.profile, '--profile'),
  );
  const release = usage(() => parseRelease(text(values, 'release'), profile, '--release'));
  const outcome = usage(() =>
    parseAttemptOutcome(text(values, 'attempts') ?? EMULATOR_DEFAULTS.attempts, '--attempts'),
  );
  let adminKey = text(values, 'adminKey');
  let adminKeySource = adminKey === undefined ? undefined : '--admin-key';
  if (adminKey === undefined && environment.adminKey !== undefined) {
    ({ key: adminKey, source: adminKeySource } = environment.adminKey);
  }
  if (adminKey === undefined && env.KIS_EMULATOR_ADMIN_KEY) {
    adminKey = env.KIS_EMULATOR_ADMIN_KEY;
    adminKeySource = 'KIS_EMULATOR_ADMIN_KEY';
  }
  if (adminKey !== undefined) checkKey(adminKey, adminKeySource ?? '--admin-key');
  const userKeys = [...list(values, 'userKey'), ...envList(env.KIS_EMULATOR_USER_KEY)];
  const curatorKeys = [...list(values, 'curatorKey'), ...envList(env.KIS_EMULATOR_CURATOR_KEY)];
  for (const key of userKeys) checkKey(key, '--user-key / KIS_EMULATOR_USER_KEY');
  for (const key of curatorKeys) checkKey(key, '--curator-key / KIS_EMULATOR_CURATOR_KEY');
  const db = text(values, 'db') ?? EMULATOR_DEFAULTS.db;
  const options: EmulatorOptions = {
    port: integer('port', text(values, 'port'), 0, 65535) ?? EMULATOR_DEFAULTS.port,
    host: text(values, 'host') ?? EMULATOR_DEFAULTS.host,
    dbPath: db === ':memory:' ? db : resolve(environment.cwd, db),
    profile,
    release,
    userKeys,
    curatorKeys,
    tasks: {
      outcome,
      durationMs:
        integer('attempt-ms', text(values, 'attemptMs'), 0) ?? EMULATOR_DEFAULTS.attemptMs,
      syncMs: integer('sync-ms', text(values, 'syncMs'), 0) ?? EMULATOR_DEFAULTS.syncMs,
      portMs: integer('port-ms', text(values, 'portMs'), 0) ?? EMULATOR_DEFAULTS.portMs,
    },
    edition: oneOf<Edition>('edition', text(values, 'edition'), EDITIONS),
    indexBackend: oneOf<IndexBackend>(
      'index-backend',
      text(values, 'indexBackend'),
      Object.keys(INDEX_BACKENDS) as IndexBackend[],
    ),
    maxBodyBytes:
      integer('max-body-bytes', text(values, 'maxBodyBytes'), 1) ?? DEFAULT_MAX_BODY_BYTES,
    latencyMs: integer('latency-ms', text(values, 'latencyMs'), 0) ?? 0,
    faults: faults(text(values, 'faults')),
    seed: integer('seed', text(values, 'seed'), 0, 2 ** 32 - 1),
    capacity: integer('capacity', text(values, 'capacity'), 1),
    queue: integer('queue', text(values, 'queue'), 0),
    outage: outage(text(values, 'outage')),
    indexing: {
      intervalMs:
        integer('index-interval-ms', text(values, 'indexIntervalMs'), 1) ??
        EMULATOR_DEFAULTS.indexIntervalMs,
    },
    overrideGlobalObjects: true,
  };
  if (options.queue !== undefined && options.capacity === undefined) {
    throw new EmulatorUsageError(
      '--queue needs --capacity (the queue is of requests over capacity)',
    );
  }
  if (adminKey !== undefined) options.adminKey = adminKey;
  const serverVersion = text(values, 'serverVersion');
  if (serverVersion !== undefined) {
    if (profile !== 'deployed') {
      throw new EmulatorUsageError('--server-version needs the deployed profile');
    }
    if (parseReleaseNumber(serverVersion) === undefined) {
      throw new EmulatorUsageError(
        `--server-version must be a release number such as 3.2.16 (got "${serverVersion}")`,
      );
    }
    options.serverVersion = serverVersion;
  }
  const origins = list(values, 'corsOrigin');
  if (origins.length > 0) options.corsOrigin = origins.length === 1 ? origins[0]! : origins;
  return { options, adminKeySource, logRequests: values.logRequests === true };
}

/** How the ready report names the deployed line played: ` (main line)`, ` (release 4.6.1)`. */
function releaseText(emulator: Emulator): string {
  if (emulator.release === undefined) return '';
  return emulator.release === 'main' ? ' (main line)' : ` (release ${emulator.release.slice(1)})`;
}

/** The ready report of a started emulator: a JSON object and the human lines. */
export function readyReport(
  emulator: Emulator,
  launch: Pick<EmulatorLaunch, 'adminKeySource'>,
): { json: Record<string, unknown>; lines: string[] } {
  const source = launch.adminKeySource;
  return {
    json: {
      ready: true,
      base_url: emulator.baseUrl,
      url: emulator.url,
      profile: emulator.profile,
      release: emulator.release ?? null,
      edition: emulator.edition,
      server_version: emulator.serverVersion ?? null,
      admin_key: source === undefined ? emulator.adminKey : null,
      admin_key_source: source ?? 'generated',
      user_keys: emulator.userKeys.length,
      curator_keys: emulator.curatorKeys.length,
      db: emulator.dbPath,
      pid: process.pid,
    },
    lines: [
      'kis-emulator ready',
      `  base URL:     ${emulator.baseUrl}`,
      `  profile:      ${emulator.profile}${releaseText(emulator)}`,
      `  edition:      ${emulator.edition}`,
      source === undefined
        ? `  admin key:    ${emulator.adminKey}  (development key, new at each start)`
        : `  admin key:    (from ${source})`,
      `  curator keys: ${emulator.curatorKeys.length}`,
      `  user keys:    ${emulator.userKeys.length}`,
      `  database:     ${emulator.dbPath}`,
      `  admin page:   ${emulator.url}/`,
      `  state:        ${emulator.url}/_emulator/state`,
    ],
  };
}

/** The options part of a usage text: one line per flag, aligned. */
export function flagHelp(extra: readonly { flag: string; help: string }[] = []): string {
  const rows = [
    ...EMULATOR_FLAGS.map((f) => ({
      flag: `--${f.name}${f.value === undefined ? '' : ` ${f.value}`}`,
      help: f.help,
    })),
    ...extra,
  ];
  const width = Math.max(...rows.map((r) => r.flag.length)) + 2;
  return rows.map((r) => `  ${r.flag.padEnd(width)}${r.help}`).join('\n');
}
