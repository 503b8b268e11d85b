/** What `startEmulator` takes. */
import type { DeployedLine, Edition, IndexBackend, Profile } from '@kis/rules';
import type { FaultPlan } from './internal/faults.js';
import type { IndexerOptions } from './internal/indexer.js';
import type { PairTaskOptions } from './internal/tasks/pair-tasks.js';

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
