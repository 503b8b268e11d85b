/**
 * `kis.plan` and `kis.apply`: connectors, credentials and their pairs as a desired state (what a
 * `kis.yaml` file holds), compared with the server's by name and source, then changed to match.
 * README, "Declarative set-up"; the file format's JSON Schema is `@kis/spec/kis-file.schema.json`.
 */
import type { AccessType, InputType, KisError, KnownOrNewSource } from '@kis/client';

/** A credential as the desired state gives it (matched on the server by name and source). */
export interface DesiredCredential {
  name: string;
  source: KnownOrNewSource;
  /**
   * Keys to set. Keys left out are kept as the server has them (servers merge updates), so a
   * file need not hold every secret. Values are compared with what was sent before (the
   * `SecretRecords`), never with the server's masked answers, and never shown.
   */
  credential_json?: Record<string, unknown> | undefined;
  /** Used when the credential is created (servers offer no call that changes them later). */
  admin_public?: boolean | undefined;
  curator_public?: boolean | undefined;
  groups?: number[] | undefined;
}

/** A connector and its pair with a credential (matched on the server by name and source). */
export interface DesiredConnector {
  name: string;
  source: KnownOrNewSource;
  /** Default: the input type the admin interface uses for the source (else `poll`). */
  input_type?: InputType | (string & {}) | undefined;
  /** The pair's access type; default `public`. */
  access_type?: AccessType | undefined;
  /** Seconds between refreshes; left out: left as the server has it; `null`: no refresh. */
  refresh_freq?: number | null | undefined;
  /** Seconds between prunes; left out: left as the server has it. */
  prune_freq?: number | null | undefined;
  /** Left out: left as the server has it. */
  indexing_start?: string | null | undefined;
  /** `connector_specific_config`, checked against the source's schema; default `{}`. */
  config?: Record<string, unknown> | undefined;
  /** The name of a credential of the same source; left out for sources that need none. */
  credential?: string | undefined;
  /** The pair's name; default: the connector's name. */
  pair_name?: string | undefined;
  /** User groups of a private pair. */
  groups?: number[] | undefined;
  /**
   * What kis itself sends into the pair (a sync, not the server's connector): the rows of an SQL
   * query or the files of a git repository. Not compared with the server: `plan` leaves it out.
   */
  documents?: DesiredDocuments | undefined;
}

/** A pair's documents: one of `sql` or `git` (`documents` of a connector in `kis.yaml`). */
export interface DesiredDocuments {
  sql?: DesiredSqlDocuments | undefined;
  git?: DesiredGitDocuments | undefined;
}

/** Rows of a query or table, by the mapping of `sqlSource` (snake_case as in the file). */
export interface DesiredSqlDocuments {
  /**
   * `${NAME}`: the environment variable holding the connection string, resolved when the source
   * is opened ({@link documentSource}); a connection string without a password is taken as is.
   * A file never holds a password.
   */
  connection: string;
  query?: string | undefined;
  table?: string | undefined;
  id: string;
  title?: string | undefined;
  text: string | string[];
  heading?: string | undefined;
  metadata?: string[] | undefined;
  updated_at?: string | undefined;
  link?: string | undefined;
  id_prefix?: string | undefined;
}

/** Files of a repository, by the options of `gitSource` (snake_case as in the file). */
export interface DesiredGitDocuments {
  /** A path (relative to the file), a `file://` URL, or an `https://`/`ssh://` URL. */
  repository: string;
  ref?: string | undefined;
  link?: string | undefined;
  id_prefix?: string | undefined;
  include?: string[] | undefined;
  exclude?: string[] | undefined;
}

/** What the server should hold. */
export interface DesiredState {
  credentials?: DesiredCredential[] | undefined;
  connectors?: DesiredConnector[] | undefined;
}

/**
 * What a planned change does. `create`, `update`, `delete` change the server; `unchanged` and
 * `keep` (on the server, not in the desired state, not pruned: only reported) do not.
 */
export type PlanAction = 'create' | 'update' | 'unchanged' | 'delete' | 'keep';

/**
 * One field that differs. Secret fields (`credential_json.*`) carry no values: `secret` says
 * `changed`, `added`, or `unverified` (no record of what was sent before, so it is sent again).
 */
export interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
  secret?: 'changed' | 'added' | 'unverified';
}

interface PlannedBase {
  action: PlanAction;
  name: string;
  /** The server's id; null for a create. */
  id: number | null;
  changes: FieldChange[];
  /** Why the change is what it is, when it is not obvious (a `keep`, a duplicate on the server). */
  note?: string;
}

export interface PlannedCredential extends PlannedBase {
  kind: 'credential';
  source: string;
}

export interface PlannedConnector extends PlannedBase {
  kind: 'connector';
  source: string;
}

export interface PlannedPair extends PlannedBase {
  kind: 'pair';
  /** The connector's name and source. */
  connector: string;
  source: string;
  /** The credential's name; null for the default empty credential (sources that need none). */
  credential: string | null;
  connectorId: number | null;
  credentialId: number | null;
}

export type PlannedChange = PlannedCredential | PlannedConnector | PlannedPair;

/**
 * The plan: every entry of the desired state and every connector, credential and pair the server
 * has, in the order `apply` carries them out (credentials, connectors, pairs, then deletions).
 * Holds no secret: it can be printed or saved as JSON.
 */
export interface ApplyPlan {
  baseUrl: string;
  changes: PlannedChange[];
  counts: Record<PlanAction, number>;
  /** True when the plan changes nothing on the server. */
  empty: boolean;
  /** Things the plan cannot change (for example a pair's access type). */
  warnings: string[];
  /**
   * Pairs whose documents a connector update would have the server prune away (automatic prunes
   * left on, documents its connector does not list): `apply` refuses the plan unless given
   * `deletePushedDocuments`.
   */
  pruneRisks: PruneRisk[];
}

/** A pair a planned connector update leaves to automatic prunes that would delete documents. */
export interface PruneRisk {
  ccPairId: number;
  /** The connector's name and source. */
  connector: string;
  source: string;
  /** The `prune_freq` the update sends. */
  pruneFreq: number;
  /** Documents the pair holds, and how many of them a prune removes. */
  documents: number;
  removes: number;
}

/**
 * What was sent before, per credential: keyed fingerprints (HMAC-SHA-256 under a random salt) of
 * each `credential_json` value, so that a secret is compared without being stored.
 * `@kis/node` has a file-backed one (`FileSecretRecords`).
 */
export interface SecretRecords {
  /** The salt of the fingerprints (created by the records, kept with them). */
  salt(): Promise<string> | string;
  get(
    credentialId: number,
  ): Promise<Record<string, string> | undefined> | Record<string, string> | undefined;
  set(credentialId: number, fingerprints: Record<string, string>): Promise<void> | void;
  delete(credentialId: number): Promise<void> | void;
}

export interface PlanOptions {
  /** Plan the deletion of what the server has and the desired state does not (default false). */
  prune?: boolean | undefined;
  /** What was sent before (default: none, so every credential value given is sent again). */
  secrets?: SecretRecords | undefined;
  signal?: AbortSignal | undefined;
}

export interface ApplyOptions {
  /** Where to record what was sent (default: the `secrets` the plan was made with). */
  secrets?: SecretRecords | undefined;
  /** Called after each change is carried out (or fails). */
  onChange?: ((step: AppliedChange) => void) | undefined;
  /** How long to wait for a pair's asynchronous deletion (default 10 minutes). */
  deletionTimeoutMs?: number | undefined;
  /**
   * Carry out a plan whose connector updates have the server prune documents away
   * (`plan.pruneRisks`); without it, `apply` throws and changes nothing.
   */
  deletePushedDocuments?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

/** A change carried out, with the ids it produced. */
export interface AppliedChange {
  change: PlannedChange;
  ok: boolean;
  /** The connector, credential or pair id (a pair's `cc_pair_id`). */
  id: number | null;
  error?: KisError | Error;
}

export interface ApplyResult {
  /** True when every change was carried out. */
  ok: boolean;
  /** The changes carried out, in order; a failure ends the list (the next apply resumes). */
  applied: AppliedChange[];
  /** The changes not attempted because an earlier one failed. */
  skipped: PlannedChange[];
}
