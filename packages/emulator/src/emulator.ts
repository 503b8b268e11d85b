import { setMaxListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
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
import { createApp } from './internal/app.js';
import { checkKeyFormat, generateKey, type KeyIdentity, KeyRing } from './internal/auth.js';
import { Capacity } from './internal/capacity.js';
import { DocumentReaders } from './internal/document-readers.js';
import { type FaultPlan, parseFaults, seededRandom } from './internal/faults.js';
import { IndexFaults } from './internal/index-faults.js';
import { IndexWriter } from './internal/index-writer.js';
import { Indexer, type IndexerControl, type IndexerOptions } from './internal/indexer.js';
import { registerStartedKeys } from './internal/key-accounts.js';
import { OutageSwitch } from './internal/outage.js';
import { parseProfile, parseRelease, profileSpec, serverKind } from './internal/profile.js';
import { credentialSummary, type StateViewOptions, stateView } from './internal/state-view.js';
import { EmulatorStats, type StatsView } from './internal/stats.js';
import type { AccountRecord } from './internal/store/accounts.js';
import type { ApiKeyRecord } from './internal/store/api-keys.js';
import type { ConnectorRecord } from './internal/store/connectors.js';
import type { DocumentSetRecord } from './internal/store/document-sets.js';
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
import {
  type DocumentAccess,
  type ModelSwitchControl,
  type SabotageControl,
  TrustControls,
} from './internal/trust-controls.js';
import { loadSpec, SpecValidators } from './internal/validation.js';
import { Visibility } from './internal/visibility.js';
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
  /**
   * The edition played: `enterprise` (the default on both profiles: user groups, and groups in
   * documents' access), `enterprise-below-business` (402 on the user-group routes and key
   * creation) or `community` (no user-group routes: 404; group links ignored in access).
   */
  edition?: Edition;
  /**
   * With the `deployed` profile, the release number played where facts depend on it, and
   * answered by `GET /version` (e.g. `3.2.16`: `already_existed` inverted; `3.3.0`: no hash gate).
   * Default: the line's (`4.6.1`, or the newest for the main line).
   */
  serverVersion?: string;
  /** The index played where they differ: `vespa` (default) or `opensearch`. */
  indexBackend?: IndexBackend;
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
   * The background work: how index attempts end (`outcome`: `succeed`, `fail`, `hang`,
   * `errors`), how long they wait and run (`startDelayMs` 100, `durationMs` 1000), how long a
   * prune runs (`pruneMs` 500), a set's or group's sync (`syncMs` 1000) and one port of a model
   * switch (`portMs` 500), and `paused` to start without the timer (tests then `tick()`).
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
  /** The user groups: `Admin` 1, `Basic` 2, `Curators` 3, then those made through the API. */
  groups(): GroupRecord[];
  /** The document sets, with their pairs and sync state (deleted ones until their sync). */
  documentSets(): DocumentSetRecord[];
  /** The accounts of the keys (started and created): ids, names, e-mails. */
  accounts(): AccountRecord[];
  /**
   * A document's readers and set names as the PRESENT index holds them (what decides who finds
   * it), beside what its pairs would stamp now, its chunk count, hidden flag, boost and
   * embeddings; undefined when it is not stored.
   */
  documentAccess(id: string): DocumentAccess | undefined;
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
  /** The edition it plays. */
  readonly edition: Edition;
  /** The release number it plays for release-dependent facts; undefined: the newest. */
  readonly serverVersion: string | undefined;
  /** What `GET /version` answers as `backend_version`. */
  readonly version: string;
  readonly state: EmulatorState;
  readonly indexer: IndexerControl;
  /** The background work on pairs: index attempts (and how they end), prunes, deletions. */
  readonly tasks: PairTasksControl;
  /** Sabotage for tests: chunks dropped, a pair's access changed, index writes failing, syncs stuck. */
  readonly sabotage: SabotageControl;
  /** An embedding-model switch, started and finished by tests. */
  readonly modelSwitch: ModelSwitchControl;
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
    syncMs: options.tasks?.syncMs ?? DEFAULT_TIMING.syncMs,
    portMs: options.tasks?.portMs ?? DEFAULT_TIMING.portMs,
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
  const edition = options.edition ?? DEFAULT_EDITION[profile];
  const indexBackend = options.indexBackend ?? DEFAULT_INDEX_BACKEND;
  const played = options.serverVersion?.replace(/^v/, '');
  const serverVersion = played ?? KIND_RELEASES[kind];
  const version =
    played === undefined
      ? `kis-emulator ${packageVersion()} (${profile}${release === 'v4.6.1' ? `, release ${release.slice(1)}` : ''})`
      : `v${played}`;
  const now = options.now ?? (() => new Date());
  const validators = new SpecValidators(profileSpec(loadSpec(options.specPath), profile), {
    missingInput: profile === 'deployed',
  });
  const store = new Store({ path: dbPath, now, version: serverVersion });
  const logError =
    options.logError ?? ((error: unknown) => console.error('kis-emulator: internal error', error));
  const stats = new EmulatorStats();
  const faults = typeof options.faults === 'string' ? parseFaults(options.faults) : options.faults;
  const random = seededRandom(options.seed ?? Math.floor(Math.random() * 2 ** 32));
  const indexFaults = new IndexFaults(faults?.rates['index-fail'] ?? 0, random, () =>
    stats.fault('index-fail'),
  );
  let keys: KeyRing;
  let indexer: Indexer;
  let tasks: PairTasks;
  let readers: DocumentReaders;
  let writer: IndexWriter;
  try {
    keys = new KeyRing({ adminKey, userKeys, curatorKeys }, (d) => createdKeyIdentity(store, d));
    registerStartedKeys(store, keys, kind);
    readers = new DocumentReaders(store, edition);
    writer = new IndexWriter(store, readers);
    indexer = new Indexer(store, writer, options.indexing);
    tasks = new PairTasks(store, writer, now, taskTiming(options), options.tasks, logError);
  } catch (error) {
    store.close();
    throw error;
  }
  tasks.poke(); // attempts, prunes, deletions, syncs and ports a previous run left going
  const trust = new TrustControls(store, readers, tasks, indexFaults);
  const resetAll = (): void => {
    store.reset();
    registerStartedKeys(store, keys, kind);
    indexFaults.setTargets([]);
    tasks.reset();
  };
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal); // one listener per stalled answer (--faults slow)
  const capacity =
    options.capacity === undefined
      ? undefined
      : new Capacity(options.capacity, options.queue ?? options.capacity);
  let outages: OutageSwitch | undefined;
  const statsView = (): StatsView =>
    stats.view(
      capacity,
      outages?.view() ?? { active: false, outages: 0, last_ended_at: null },
      store.documents.embeddingTotal,
    );
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
        random,
        capacity,
        stats,
        closing: shutdown.signal,
      },
      stats: statsView,
      reset: resetAll,
      edition,
      serverVersion,
      indexBackend,
      visibility: new Visibility(store, edition),
      writer,
      indexFaults,
      trust,
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
    documentSets: () => store.documentSets.list(),
    accounts: () => store.accounts.list(),
    documentAccess: (id) => trust.documentAccess(id),
    apiKeys: () => store.apiKeys.list(),
    indexing: () => store.documents.indexCounts(),
    snapshot: (o) =>
      stateView(store, {
        allConnectors: o?.allConnectors ?? false,
        fullDocuments: o?.fullDocuments ?? false,
        documentLimit: o?.documentLimit ?? 1000,
      }),
    reset: resetAll,
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
    edition,
    serverVersion,
    version,
    state,
    indexer,
    tasks,
    sabotage: trust.sabotage,
    modelSwitch: trust.modelSwitch,
    stats: statsView,
    outage: (forMs, afterMs = 0) => outageSwitch.schedule(afterMs, forMs),
    close,
  };
}
