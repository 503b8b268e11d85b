/** What `startEmulator` resolves with: the running emulator and its state for tests. */
import type { DeployedLine, Edition, Profile, ServerKind } from '@kis/rules';
import type { IndexerControl } from './internal/indexer.js';
import type { credentialSummary, StateViewOptions, stateView } from './internal/state-view.js';
import type { StatsView } from './internal/stats.js';
import type { AccountRecord } from './internal/store/accounts.js';
import type { ApiKeyRecord } from './internal/store/api-keys.js';
import type { ConnectorRecord } from './internal/store/connectors.js';
import type { DocumentSetRecord } from './internal/store/document-sets.js';
import type { DocumentRecord, DocumentSummary, IndexCounts } from './internal/store/documents.js';
import type { UserFileRecord } from './internal/store/files.js';
import type { GroupRecord } from './internal/store/groups.js';
import type { IndexAttemptRecord } from './internal/store/index-attempts.js';
import type { PairRecord } from './internal/store/pairs.js';
import type { PairTasksControl } from './internal/tasks/pair-tasks.js';
import type {
  DocumentAccess,
  ModelSwitchControl,
  SabotageControl,
} from './internal/trust-controls.js';

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
