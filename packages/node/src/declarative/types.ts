/**
 * `kis.plan` and `kis.apply`: connectors, credentials and their pairs, user groups and document
 * sets as a desired state (what a `kis.yaml` file holds), compared with the server's by name (and
 * source), then changed to match.
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
  /**
   * The pair's user groups, by name (or id): linked when the pair is created, then kept equal
   * through the groups' updates. Left out: left as the server has them.
   */
  groups?: (string | number)[] | undefined;
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

/** A user group (enterprise edition), matched on the server by name. */
export interface DesiredUserGroup {
  name: string;
  /**
   * Its members: account ids, or e-mails of accounts a listed group holds. Left out: left as the
   * server has them. Its pairs are the connectors that name it in `groups`.
   */
  users?: string[] | undefined;
}

/** A document set, matched on the server by name. */
export interface DesiredDocumentSet {
  name: string;
  /** Default empty. */
  description?: string | undefined;
  /** Its pairs: a connector's name (or `pair_name`) of the file or the server, or a pair id. */
  pairs: (string | number)[];
  /** Every user may use it. Default: true when it names no group and no user. */
  public?: boolean | undefined;
  /** The groups it is shared with, by name (or id). */
  groups?: (string | number)[] | undefined;
  /** The accounts it is shared with (ids). */
  users?: string[] | undefined;
}

/** What the server should hold. */
export interface DesiredState {
  credentials?: DesiredCredential[] | undefined;
  connectors?: DesiredConnector[] | undefined;
  user_groups?: DesiredUserGroup[] | undefined;
  document_sets?: DesiredDocumentSet[] | undefined;
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

export interface PlannedUserGroup extends PlannedBase {
  kind: 'user_group';
}

export interface PlannedDocumentSet extends PlannedBase {
  kind: 'document_set';
}

export type PlannedChange =
  | PlannedCredential
  | PlannedConnector
  | PlannedPair
  | PlannedUserGroup
  | PlannedDocumentSet;

/**
 * Who gains or loses sight of one pair's documents: readers as the index stamps them
 * (`@kis/rules`, `documentReaders`): `PUBLIC`, `user_email:<credential owner>`, `group:<name>`.
 */
export interface PairAccessChange {
  /** The pair's name. */
  pair: string;
  /** Null for a pair the plan creates. */
  id: number | null;
  gains: string[];
  loses: string[];
}

/** Members a group gains or loses, and the pairs they gain or lose sight of through it. */
export interface MemberAccessChange {
  group: string;
  /** Account e-mails where known, else ids. */
  gains: string[];
  loses: string[];
  /** The names of the group's pairs once the plan is applied. */
  pairs: string[];
}

/** Who gains or loses access to which pair, before anything is sent. */
export interface AccessPlan {
  pairs: PairAccessChange[];
  members: MemberAccessChange[];
}

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
  /** Who gains or loses access to which pair (empty lists when nobody does). */
  access: AccessPlan;
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

/**
 * The user groups and document sets `apply` created on a server, by name: `prune` deletes only
 * those (kis does not delete what others made). `@kis/node` has a file-backed one
 * (`FileCreatedRecords`).
 */
export interface CreatedRecords {
  has(kind: ScopeKind, name: string): Promise<boolean> | boolean;
  add(kind: ScopeKind, name: string): Promise<void> | void;
  delete(kind: ScopeKind, name: string): Promise<void> | void;
  /** Whether any name of `kind` is recorded (the server's list is read only then). */
  any(kind: ScopeKind): Promise<boolean> | boolean;
}

/** The kinds `CreatedRecords` keeps. */
export type ScopeKind = 'user_group' | 'document_set';

export interface PlanOptions {
  /**
   * Plan the deletion of what the server has and the desired state does not (default false):
   * connectors, credentials and pairs, and the groups and sets `created` says kis made.
   */
  prune?: boolean | undefined;
  /** The groups and sets kis created on this server (default: none recorded). */
  created?: CreatedRecords | undefined;
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
  /**
   * How long to wait for a group's or set's sync before changing it (servers refuse edits while
   * one runs; default 10 minutes).
   */
  syncTimeoutMs?: number | undefined;
  /** Called when apply waits for a group's or set's sync, or deletion, to finish. */
  onSyncWait?: ((what: string) => void) | undefined;
  /** Where to record the groups and sets created (default: the `created` the plan was made with). */
  created?: CreatedRecords | undefined;
  signal?: AbortSignal | undefined;
}

/** A change carried out, with the ids it produced. */
export interface AppliedChange {
  change: PlannedChange;
  ok: boolean;
  /** The connector, credential, pair, group or set id (a pair's `cc_pair_id`). */
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
