import { setMaxListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { DeployedLine, Profile, ServerKind } from '@kis/rules';
import { createApp } from './internal/app.js';
import { checkKeyFormat, generateKey, type KeyIdentity, KeyRing } from './internal/auth.js';
import { Capacity } from './internal/capacity.js';
import { type FaultPlan, parseFaults, seededRandom } from './internal/faults.js';
import { Indexer, type IndexerControl, type IndexerOptions } from './internal/indexer.js';
import { OutageSwitch } from './internal/outage.js';
import { parseProfile, parseRelease, profileSpec, serverKind } from './internal/profile.js';
import { credentialSummary, type StateViewOptions, stateView } from './internal/state-view.js';
import { EmulatorStats, type StatsView } from './internal/stats.js';
import type { ApiKeyRecord } from './internal/store/api-keys.js';
import type { ConnectorRecord } from './internal/store/connectors.js';
import type { DocumentRecord, DocumentSummary, IndexCounts } from './internal/store/documents.js';
import type { UserFileRecord } from './internal/store/files.js';
import type { GroupRecord } from './internal/store/groups.js';
import { Store } from './internal/store/index.js';
import type { IndexAttemptRecord } from './internal/store/index-attempts.js';
import type { PairRecord } from './internal/store/pairs.js';
import {
  DEFAULT_TIMING,
  type PairTaskOptions,
  PairTasks,
  type PairTasksControl,
} from './internal/tasks/pair-tasks.js';
import { loadSpec, SpecValidators } from './internal/validation.js';
import { packageVersion } from './version.js';

export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Milliseconds each phase of a pair's deletion (waiting, cleaning up) lasts at least. */
export const DEFAULT_DELETION_DELAY_MS = 30;

export interface EmulatorOptions {
  /** TCP port; 0 (the default) picks a free port. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** SQLite database file, or `:memory:` (the default). */
  dbPath?: string;
  /** The admin API key. Default: a random development key per start. */
  adminKey?: string;
  /** Keys of role `basic`: enough for the calls whose `x-kis-role` is `basic` in the profile. */
  userKeys?: readonly string[];
  /** Keys of role `curator`: every call but the admin-only ones. */
  curatorKeys?: readonly string[];
  /**
   * The server the emulator plays: `seed` (the default: the seed contract) or `deployed` (the
   * servers people run: their routes, roles, error bodies and lax validation).
   */
  profile?: Profile;
  /**
   * With the `deployed` profile, the line it plays: `main` (the default: keys in groups, the main
   * line's answers) or `v4.6.1` (keys with roles, release 4.6.1's answers; `4.6.1` is read too).
   */
  release?: DeployedLine;
  /** Largest accepted request body, in bytes (413 above). Default 10 MiB. */
  maxBodyBytes?: number;
  /** Added service time per ingestion request, in milliseconds. Default 0. */
  latencyMs?: number;
  /**
   * Faults drawn per ingestion call, as `--faults` takes them
   * (`503=0.10,429=0.05,reset=0.01,reset-after-store=0.01,slow=0.01:30s`) or parsed.
   */
  faults?: string | FaultPlan;
  /** Seed of the fault draws: the same seed draws the same faults. Default: random. */
  seed?: number;
  /** At most this many API requests in service at once; more wait (see `queue`). */
  capacity?: number;
  /** With `capacity`: at most this many requests wait; more are answered 503. Default: capacity. */
  queue?: number;
  /** An outage: after `afterMs`, connections are refused for `forMs`, then served again. */
  outage?: { afterMs: number; forMs: number };
  /** Allowed CORS origin(s); CORS is off when undefined. */
  corsOrigin?: string | string[];
  /** The background indexing worker's settings. */
  indexing?: IndexerOptions;
  /**
   * The background work on pairs: how index attempts end (`outcome`: `succeed`, `fail`, `hang`,
   * `errors`), how long they wait and run (`startDelayMs` 100, `durationMs` 1000), how long a
   * prune runs (`pruneMs` 500), and `paused` to start without the timer (tests then `tick()`).
   */
  tasks?: PairTaskOptions;
  /**
   * Milliseconds each phase of a pair's deletion lasts at least: waiting for its work to stop
   * (`PENDING`), then removing its documents, the pair and, when no pair is left, its connector
   * (`STARTED`). Default 30.
   */
  deletionDelayMs?: number;
  /** The bundled OpenAPI document to validate against. Default: `@kis/spec/openapi.json`. */
  specPath?: string;
  /** Receives one line per request (`METHOD path status ms`); never headers or bodies. */
  logRequest?: (line: string) => void;
  /** Receives unexpected errors (answered 500). Default: `console.error`. */
  logError?: (error: unknown) => void;
  /**
   * Let @hono/node-server replace the global Request/Response with its faster versions. Default
   * false, so an emulator started inside another program leaves that program's globals alone;
   * the `kis-emulator` binary turns it on.
   */
  overrideGlobalObjects?: boolean;
  /** Clock, for tests. */
  now?: () => Date;
}

/** Read access to the emulator's state, for tests (the same data as `GET /_emulator/state`). */
export interface EmulatorState {
  /** Fully created connectors (with a credential associated), or all with `{ all: true }`. */
  connectors(options?: { all?: boolean }): ConnectorRecord[];
  /** Credentials without secrets: names, sources and the keys of their JSON. */
  credentials(): ReturnType<typeof credentialSummary>[];
  pairs(): PairRecord[];
  /** Most recent documents first (`limit` default 1000, -1 for all). */
  documents(options?: { limit?: number }): DocumentSummary[];
  /** One stored document with its content, by stored id. */
  document(id: string): DocumentRecord | undefined;
  files(): UserFileRecord[];
  /** A pair's index attempts, newest first. */
  indexAttempts(ccPairId: number): IndexAttemptRecord[];
  /** The user groups (the main line's key model): `Admin` 1, `Basic` 2, `Curators` 3. */
  groups(): GroupRecord[];
  /** The keys made with `createApiKey` (never the keys themselves). */
  apiKeys(): ApiKeyRecord[];
  indexing(): IndexCounts;
  /** The JSON state view. */
  snapshot(options?: Partial<StateViewOptions>): ReturnType<typeof stateView>;
  /** Deletes everything and recreates credential 0, connector 0, pair 1 and the groups. */
  reset(): void;
}

export interface Emulator {
  /** `{base_url}` of the spec: `http://host:port/api`. */
  readonly baseUrl: string;
  /** The server's root URL (admin page): `http://host:port`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly dbPath: string;
  /** The admin API key (given, or generated at start). */
  readonly adminKey: string;
  readonly userKeys: readonly string[];
  readonly curatorKeys: readonly string[];
  /** The server profile it plays. */
  readonly profile: Profile;
  /** The deployed line it plays (`main`, `v4.6.1`); undefined with the seed profile. */
  readonly release: DeployedLine | undefined;
  /** The kind of server whose answers it gives: `seed`, `main` or `v4.6.1`. */
  readonly kind: ServerKind;
  /** What `GET /version` answers as `backend_version`. */
  readonly version: string;
  readonly state: EmulatorState;
  readonly indexer: IndexerControl;
  /** The background work on pairs: index attempts (and how they end), prunes, deletions. */
  readonly tasks: PairTasksControl;
  /** The counters of `GET /_emulator/stats`. */
  stats(): StatsView;
  /** Refuses connections for `forMs` (after `afterMs`, default 0); resolves when it serves again. */
  outage(forMs: number, afterMs?: number): Promise<void>;
  /** Stops listening, stops the worker and closes the database. Idempotent. */
  close(): Promise<void>;
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
  parseRelease(options.release, parseProfile(options.profile, 'profile'), 'release');
}

function createdKeyIdentity(store: Store, digest: string): KeyIdentity | undefined {
  const key = store.apiKeys.byDigest(digest);
  if (key === undefined) return undefined;
  const { id, name, user_id: userId, role, group_ids: groupIds } = key;
  return { apiKeyId: id, name, userId, role, groupIds };
}

/** The background work's timing from the options, each checked. */
function taskTiming(options: EmulatorOptions) {
  return {
    startDelayMs: options.tasks?.startDelayMs ?? DEFAULT_TIMING.startDelayMs,
    durationMs: options.tasks?.durationMs ?? DEFAULT_TIMING.durationMs,
    pruneMs: options.tasks?.pruneMs ?? DEFAULT_TIMING.pruneMs,
    deletionDelayMs: options.deletionDelayMs ?? DEFAULT_DELETION_DELAY_MS,
  };
}

/** Starts the emulator; resolves once it accepts connections. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  checkOptions(options);
  const host = options.host ?? '127.0.0.1';
  const dbPath = options.dbPath ?? ':memory:';
  const adminKey = options.adminKey ?? generateKey('admin');
  const userKeys = [...(options.userKeys ?? [])];
  const curatorKeys = [...(options.curatorKeys ?? [])];
  const profile = parseProfile(options.profile, 'profile');
  const release = parseRelease(options.release, profile, 'release');
  const kind = serverKind(profile, release);
  const version = `kis-emulator ${packageVersion()} (${profile}${release === 'v4.6.1' ? `, release ${release.slice(1)}` : ''})`;
  const now = options.now ?? (() => new Date());
  const validators = new SpecValidators(profileSpec(loadSpec(options.specPath), profile), {
    missingInput: profile === 'deployed',
  });
  const store = new Store({ path: dbPath, now });
  const logError =
    options.logError ?? ((error: unknown) => console.error('kis-emulator: internal error', error));
  let keys: KeyRing;
  let indexer: Indexer;
  let tasks: PairTasks;
  try {
    keys = new KeyRing({ adminKey, userKeys, curatorKeys }, (d) => createdKeyIdentity(store, d));
    indexer = new Indexer(store, options.indexing);
    tasks = new PairTasks(store, now, taskTiming(options), options.tasks, logError);
  } catch (error) {
    store.close();
    throw error;
  }
  tasks.poke(); // attempts, prunes and deletions a previous run left going
  const stats = new EmulatorStats();
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal); // one listener per stalled answer (--faults slow)
  const capacity =
    options.capacity === undefined
      ? undefined
      : new Capacity(options.capacity, options.queue ?? options.capacity);
  const faults = typeof options.faults === 'string' ? parseFaults(options.faults) : options.faults;
  let outages: OutageSwitch | undefined;
  const statsView = (): StatsView =>
    stats.view(capacity, outages?.view() ?? { active: false, outages: 0, last_ended_at: null });
  let app: ReturnType<typeof createApp>;
  try {
    app = createApp({
      store,
      indexer,
      tasks,
      validators,
      keys,
      profile,
      kind,
      version,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      latencyMs: options.latencyMs ?? 0,
      corsOrigin: options.corsOrigin,
      now,
      logRequest: options.logRequest,
      logError,
      load: {
        faults,
        random: seededRandom(options.seed ?? Math.floor(Math.random() * 2 ** 32)),
        capacity,
        stats,
        closing: shutdown.signal,
      },
      stats: statsView,
    });
  } catch (error) {
    tasks.close();
    indexer.stop();
    store.close();
    throw error;
  }

  let server: ServerType;
  try {
    server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve(
        {
          fetch: app.fetch,
          port: options.port ?? 0,
          hostname: host,
          overrideGlobalObjects: options.overrideGlobalObjects ?? false,
        },
        () => resolve(s),
      );
      s.once('error', reject);
    });
  } catch (error) {
    tasks.close();
    indexer.stop();
    store.close();
    throw error;
  }
  server.on('connection', () => {
    stats.connections++;
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${urlHost}:${address.port}`;

  const outageSwitch = new OutageSwitch(server, address.port, address.address);
  outages = outageSwitch;
  if (options.outage !== undefined) {
    outageSwitch
      .schedule(options.outage.afterMs, options.outage.forMs)
      .catch((error: unknown) => (options.logError ?? console.error)(error));
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      outageSwitch.cancel();
      shutdown.abort();
      tasks.close();
      indexer.stop();
      server.close(() => {
        store.close();
        resolve();
      });
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
    return closing;
  };

  const state: EmulatorState = {
    connectors: (o) => store.connectors.list(o),
    credentials: () => store.credentials.list().map(credentialSummary),
    pairs: () => store.pairs.list(),
    documents: (o) => store.documents.listSummaries(o?.limit ?? 1000),
    document: (id) => store.documents.get(id),
    files: () => store.files.list(),
    indexAttempts: (id) =>
      store.indexAttempts.pageOfPair(id, 0, store.indexAttempts.countOfPair(id) || 1),
    groups: () => store.groups.list(),
    apiKeys: () => store.apiKeys.list(),
    indexing: () => store.documents.indexCounts(),
    snapshot: (o) =>
      stateView(store, {
        allConnectors: o?.allConnectors ?? false,
        fullDocuments: o?.fullDocuments ?? false,
        documentLimit: o?.documentLimit ?? 1000,
      }),
    reset: () => {
      store.reset();
      tasks.reset();
    },
  };

  return {
    baseUrl: `${url}/api`,
    url,
    host: address.address,
    port: address.port,
    dbPath,
    adminKey,
    userKeys,
    curatorKeys,
    profile,
    release,
    kind,
    version,
    state,
    indexer,
    tasks,
    stats: statsView,
    outage: (forMs, afterMs = 0) => outageSwitch.schedule(afterMs, forMs),
    close,
  };
}
