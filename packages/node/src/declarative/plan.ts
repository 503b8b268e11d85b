/**
 * `kis.plan`: the desired state against the server's, entry by entry. Credentials and connectors
 * are matched by name and source (the oldest when the server has several: the others are reported
 * as duplicates); a connector's pair by its connector and credential. What the server has and the
 * desired state does not is reported, and deleted only with `prune`.
 */

import type {
  Connector,
  ConnectorCreateRequest,
  ConnectorStatus,
  Credential,
  InputType,
} from '@kis/client';
import {
  canonicalJson,
  DesiredStateError,
  type DesiredStateIssue,
  defaultInputType,
  type KisClient,
  lowerAccess,
} from '@kis/client';
import { DEFAULT_CREDENTIAL_ID, DEFAULT_DOCUMENT_SOURCE, prunesOnItsOwn } from '@kis/rules';
import { accessPlan } from './access.js';
import { memoryCreated } from './created.js';
import { type ConnectorUpdate, pruneRisksOf } from './prune-risks.js';
import { planScope } from './scope.js';
import { readScope } from './scope-state.js';
import type { IdRef, ScopeHost, ScopeStep } from './scope-types.js';
import { credentialChanges, memoryRecords } from './secrets.js';
import type {
  ApplyPlan,
  CreatedRecords,
  DesiredConnector,
  DesiredCredential,
  DesiredState,
  FieldChange,
  PlanAction,
  PlannedChange,
  PlanOptions,
  SecretRecords,
} from './types.js';
import { desiredStateIssues, newCredentialIssues } from './validate.js';
import { scopeEntryIssues } from './validate-scope.js';

/** The server's set-up, as `plan` reads it. */
export interface ServerState {
  credentials: Credential[];
  connectors: Connector[];
  pairs: ConnectorStatus[];
}

/** `source` + name: how entries are matched. */
export const keyOf = (e: { name?: string | null; source: string }) =>
  `${e.source}\u0000${e.name ?? ''}`;

/** A change before its action is known. */
type Unplanned = PlannedChange extends infer C
  ? C extends PlannedChange
    ? Omit<C, 'action'>
    : never
  : never;

/** What `apply` does for a change (kept out of the plan, which holds no secret). */
export type Step =
  | { type: 'credential-create'; key: string; desired: DesiredCredential }
  | { type: 'credential-update'; key: string; id: number; desired: DesiredCredential }
  | { type: 'connector-create'; key: string; body: ConnectorCreateRequest }
  | { type: 'connector-update'; key: string; id: number; body: ConnectorCreateRequest }
  | {
      type: 'pair-create';
      connectorKey: string;
      credentialKey: string | null;
      desired: DesiredConnector;
      /** The groups it is associated with (set by the scope planner). */
      groups?: readonly IdRef[] | undefined;
    }
  | { type: 'pair-rename'; id: number; name: string }
  | { type: 'pair-delete'; id: number; connectorId: number; credentialId: number }
  | { type: 'connector-delete'; id: number }
  | { type: 'credential-delete'; id: number }
  | ScopeStep;

export interface PlanInternals {
  records: SecretRecords;
  salt: string;
  steps: Map<PlannedChange, Step>;
  /** Ids known when planning: credentials and connectors by key. */
  ids: Map<string, number>;
  created: CreatedRecords;
}

/** The internals of each plan made by `kis.plan` (a plan from elsewhere cannot be applied). */
export const INTERNALS = new WeakMap<ApplyPlan, PlanInternals>();

const builtInConnector = (c: { id: number; source: string }) =>
  c.source === DEFAULT_DOCUMENT_SOURCE || c.id === 0;
const builtInCredential = (c: { id: number; source: string }) =>
  c.id === DEFAULT_CREDENTIAL_ID || c.source === DEFAULT_DOCUMENT_SOURCE;

/** Server records by key, oldest first. */
function byKey<T extends { id: number; name?: string | null; source: string }>(
  records: readonly T[],
): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of [...records].sort((a, b) => a.id - b.id)) {
    const key = keyOf(r);
    out.set(key, [...(out.get(key) ?? []), r]);
  }
  return out;
}

function configChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const field = `config.${key}`;
    if (!(key in after)) changes.push({ field, before: before[key] });
    else if (!(key in before)) changes.push({ field, after: after[key] });
    else if (canonicalJson(before[key]) !== canonicalJson(after[key])) {
      changes.push({ field, before: before[key], after: after[key] });
    }
  }
  return changes;
}

/**
 * `prune_freq` as the desired state sets it: null and 0 both mean never (updates send 0 for it,
 * which servers keep), so one is not a change from the other.
 */
function pruneFreqChange(given: number | null | undefined, server: number | null): FieldChange[] {
  const never = (v: number | null | undefined) => !prunesOnItsOwn(v);
  if (given === undefined || given === server || (never(given) && never(server))) return [];
  return [{ field: 'prune_freq', before: server, after: given }];
}

/** A scalar the desired state sets only when it gives it (left out: left as the server has it). */
function scalarChange(field: string, given: unknown, server: unknown): FieldChange[] {
  if (given === undefined || canonicalJson(given) === canonicalJson(server ?? null)) return [];
  return [{ field, before: server ?? null, after: given }];
}

class Planner {
  readonly changes: PlannedChange[] = [];
  readonly deletions: PlannedChange[] = [];
  readonly kept: PlannedChange[] = [];
  readonly warnings: string[] = [];
  readonly steps = new Map<PlannedChange, Step>();
  readonly ids = new Map<string, number>();
  /** Server credential and connector ids the desired state claims. */
  readonly claimedCredentials = new Set<number>();
  readonly claimedConnectors = new Set<number>();
  readonly claimedPairs = new Set<number>();

  constructor(
    readonly server: ServerState,
    readonly prune: boolean,
    readonly records: SecretRecords,
    readonly salt: string,
  ) {}

  add(change: PlannedChange, step?: Step): void {
    const list =
      change.action === 'delete'
        ? this.deletions
        : change.action === 'keep'
          ? this.kept
          : this.changes;
    list.push(change);
    if (step) this.steps.set(change, step);
  }

  /** An unclaimed server record: deleted with `prune`, else reported. */
  leftover(change: Unplanned & { note: string }, step: Step): void {
    const action: PlanAction = this.prune ? 'delete' : 'keep';
    this.add({ ...change, action } as PlannedChange, this.prune ? step : undefined);
  }
}

async function planCredentials(p: Planner, desired: readonly DesiredCredential[]): Promise<void> {
  const server = byKey(p.server.credentials.filter((c) => !builtInCredential(c)));
  const problems: DesiredStateIssue[] = [];
  for (const [i, d] of desired.entries()) {
    const key = keyOf(d);
    const match = server.get(key)?.[0];
    const json = d.credential_json ?? {};
    if (match === undefined) {
      problems.push(...(await newCredentialIssues(`credentials[${i}] "${d.name}"`, d)));
      const changes = Object.keys(json).map((k) => ({
        field: `credential_json.${k}`,
        secret: 'added' as const,
      }));
      p.add(
        { kind: 'credential', action: 'create', name: d.name, source: d.source, id: null, changes },
        { type: 'credential-create', key, desired: d },
      );
      continue;
    }
    p.claimedCredentials.add(match.id);
    p.ids.set(key, match.id);
    const records = (await p.records.get(match.id)) ?? undefined;
    const changes = await credentialChanges(p.salt, json, match.credential_json ?? {}, records);
    const action = changes.length > 0 ? 'update' : 'unchanged';
    p.add(
      { kind: 'credential', action, name: d.name, source: d.source, id: match.id, changes },
      action === 'update'
        ? { type: 'credential-update', key, id: match.id, desired: d }
        : undefined,
    );
  }
  if (problems.length > 0) throw stateError(problems);
}

function connectorBody(
  d: DesiredConnector,
  inputType: string,
  server: Connector | undefined,
): ConnectorCreateRequest {
  return {
    name: d.name,
    source: d.source as ConnectorCreateRequest['source'],
    input_type: inputType as InputType,
    connector_specific_config: d.config ?? {},
    access_type: lowerAccess(d.access_type ?? 'public'),
    refresh_freq: d.refresh_freq !== undefined ? d.refresh_freq : (server?.refresh_freq ?? null),
    prune_freq: d.prune_freq !== undefined ? d.prune_freq : (server?.prune_freq ?? null),
    indexing_start:
      d.indexing_start !== undefined ? d.indexing_start : (server?.indexing_start ?? null),
  };
}

async function planConnectors(p: Planner, desired: readonly DesiredConnector[]): Promise<void> {
  // an ingestion_api connector the file names is the file's; the server's own are never matched
  const named = new Set(desired.map(keyOf));
  const server = byKey(
    p.server.connectors.filter((c) => c.id !== 0 && (!builtInConnector(c) || named.has(keyOf(c)))),
  );
  for (const d of desired) {
    const key = keyOf(d);
    const match = server.get(key)?.[0];
    const inputType = d.input_type ?? (await defaultInputType(d.source));
    const body = connectorBody(d, inputType, match);
    if (match === undefined) {
      const changes: FieldChange[] = [
        { field: 'input_type', after: inputType },
        ...configChanges({}, d.config ?? {}),
        ...scalarChange('refresh_freq', d.refresh_freq, null),
        ...scalarChange('prune_freq', d.prune_freq, null),
        ...scalarChange('indexing_start', d.indexing_start, null),
      ];
      p.add(
        { kind: 'connector', action: 'create', name: d.name, source: d.source, id: null, changes },
        { type: 'connector-create', key, body },
      );
      continue;
    }
    p.claimedConnectors.add(match.id);
    p.ids.set(key, match.id);
    const changes = [
      ...scalarChange(
        'input_type',
        d.input_type ?? (match.input_type === null ? inputType : undefined),
        match.input_type,
      ),
      ...configChanges(match.connector_specific_config ?? {}, d.config ?? {}),
      ...scalarChange('refresh_freq', d.refresh_freq, match.refresh_freq),
      ...pruneFreqChange(d.prune_freq, match.prune_freq),
      ...scalarChange('indexing_start', d.indexing_start, match.indexing_start),
    ];
    const action = changes.length > 0 ? 'update' : 'unchanged';
    p.add(
      { kind: 'connector', action, name: d.name, source: d.source, id: match.id, changes },
      action === 'update' ? { type: 'connector-update', key, id: match.id, body } : undefined,
    );
  }
}

function planPairs(p: Planner, desired: DesiredState): void {
  for (const d of desired.connectors ?? []) {
    const connectorKey = keyOf(d);
    const credentialKey =
      d.credential === undefined ? null : keyOf({ name: d.credential, source: d.source });
    const connectorId = p.ids.get(connectorKey) ?? null;
    const credentialId =
      credentialKey === null ? DEFAULT_CREDENTIAL_ID : (p.ids.get(credentialKey) ?? null);
    const base = {
      kind: 'pair' as const,
      name: d.pair_name ?? d.name,
      connector: d.name,
      source: d.source,
      credential: d.credential ?? null,
      connectorId,
      credentialId,
    };
    const existing =
      connectorId === null || credentialId === null
        ? undefined
        : p.server.pairs.find(
            (s) => s.connector.id === connectorId && s.credential.id === credentialId,
          );
    if (existing === undefined) {
      const changes: FieldChange[] = [
        { field: 'name', after: base.name },
        { field: 'access_type', after: lowerAccess(d.access_type ?? 'public') },
      ];
      p.add(
        { ...base, action: 'create', id: null, changes },
        { type: 'pair-create', connectorKey, credentialKey, desired: d },
      );
      continue;
    }
    p.claimedPairs.add(existing.cc_pair_id);
    const changes = scalarChange('name', base.name, existing.name);
    const access = lowerAccess(d.access_type ?? 'public');
    if (existing.access_type !== access) {
      p.warnings.push(
        `pair ${existing.cc_pair_id} of connector "${d.name}" is ${existing.access_type}, the file says ${access}: servers cannot change a pair's access type; delete the pair (or the connector) to recreate it`,
      );
    }
    p.add(
      {
        ...base,
        action: changes.length > 0 ? 'update' : 'unchanged',
        id: existing.cc_pair_id,
        changes,
      },
      changes.length > 0
        ? { type: 'pair-rename', id: existing.cc_pair_id, name: base.name }
        : undefined,
    );
  }
}

/** What the server has and the desired state does not claim. */
function planLeftovers(p: Planner): void {
  const deletedPairs = new Set<number>();
  for (const s of p.server.pairs) {
    if (p.claimedPairs.has(s.cc_pair_id) || builtInConnector(s.connector)) continue;
    const claimed = p.claimedConnectors.has(s.connector.id);
    const note = claimed
      ? `a pair of connector "${s.connector.name}" with credential ${s.credential.id}, which the file does not name`
      : `a pair of connector "${s.connector.name}", which the file does not have`;
    if (p.prune) deletedPairs.add(s.cc_pair_id);
    p.leftover(
      {
        kind: 'pair',
        name: s.name ?? '',
        connector: s.connector.name,
        source: s.connector.source,
        credential: s.credential.name ?? null,
        connectorId: s.connector.id,
        credentialId: s.credential.id,
        id: s.cc_pair_id,
        changes: [],
        note,
      },
      {
        type: 'pair-delete',
        id: s.cc_pair_id,
        connectorId: s.connector.id,
        credentialId: s.credential.id,
      },
    );
  }
  const claimedIds = new Map<string, number>();
  for (const c of p.server.connectors)
    if (p.claimedConnectors.has(c.id)) claimedIds.set(keyOf(c), c.id);
  for (const c of p.server.connectors) {
    if (p.claimedConnectors.has(c.id) || builtInConnector(c)) continue;
    const twin = claimedIds.get(keyOf(c));
    const pairs = p.server.pairs.filter((s) => s.connector.id === c.id).length;
    const note =
      twin !== undefined
        ? `a second connector with this name and source (the file's is ${twin})`
        : pairs === 0
          ? 'not in the file; it has no pair (a half-made connector)'
          : 'not in the file';
    p.leftover(
      { kind: 'connector', name: c.name, source: c.source, id: c.id, changes: [], note },
      { type: 'connector-delete', id: c.id },
    );
  }
  for (const c of p.server.credentials) {
    if (p.claimedCredentials.has(c.id) || builtInCredential(c)) continue;
    const users = p.server.pairs.filter(
      (s) => s.credential.id === c.id && !deletedPairs.has(s.cc_pair_id),
    );
    const change = {
      kind: 'credential' as const,
      name: c.name ?? '',
      source: c.source,
      id: c.id,
      changes: [],
    };
    if (users.length > 0) {
      const note = `not in the file; used by pair ${users.map((u) => u.cc_pair_id).join(', ')}`;
      p.add({ ...change, action: 'keep', note });
    } else
      p.leftover({ ...change, note: 'not in the file' }, { type: 'credential-delete', id: c.id });
  }
}

/** The connector updates among a plan's steps. */
function* connectorUpdates(steps: Iterable<Step>): Generator<ConnectorUpdate> {
  for (const step of steps) if (step.type === 'connector-update') yield step;
}

/** What the plan lends the planning of groups and sets (scope.ts). */
function scopeHost(p: Planner, desired: DesiredState, created: CreatedRecords): ScopeHost {
  const pairChanges = p.changes.filter((c) => c.kind === 'pair');
  return {
    prune: p.prune,
    pairs: p.server.pairs,
    credentials: p.server.credentials,
    // planPairs adds one pair change per connector, in the file's order
    filePairs: (desired.connectors ?? []).flatMap((d, i) => {
      const change = pairChanges[i];
      return change?.kind === 'pair' ? [{ desired: d, change }] : [];
    }),
    warnings: p.warnings,
    created,
    add: (change, step) => p.add(change, step),
    linkOnCreate(change, groups) {
      const step = p.steps.get(change);
      if (step?.type === 'pair-create') step.groups = groups;
    },
  };
}

function stateError(issues: DesiredStateIssue[]): DesiredStateError {
  const lines = issues.map((i) => `${i.entry}${i.path ? `: ${i.path}` : ''}: ${i.message}`);
  return new DesiredStateError(
    `${issues.length} problem${issues.length === 1 ? '' : 's'} in the desired state (nothing was sent):\n  ${lines.join('\n  ')}`,
    issues,
  );
}

/**
 * Compares a desired state (connectors, credentials, pairs: what `kis.yaml` holds) with the
 * server's: every problem of the desired state is reported at once before any request
 * (`DesiredStateError`); the plan holds no secret (README, "Declarative set-up").
 */
export async function plan(
  kis: KisClient,
  desired: DesiredState,
  options: PlanOptions = {},
): Promise<ApplyPlan> {
  const issues = [...(await desiredStateIssues(desired)), ...scopeEntryIssues(desired)];
  if (issues.length > 0) throw stateError(issues);
  const request = options.signal ? { signal: options.signal } : {};
  const created = options.created ?? memoryCreated();
  const [credentials, listed, pairs, scopeState] = await Promise.all([
    kis.credentials.list(request),
    kis.connectors.list(request),
    kis.pairs.list(request),
    readScope(kis, desired, options.prune === true, created, request),
  ]);
  // servers leave ingestion_api connectors out of their connector listing; the pair listing has
  // those with a pair, which a file that declares one (a pair it feeds itself) must find again
  const connectors = [
    ...listed,
    ...pairs
      .map((s) => s.connector)
      .filter((c) => c.source === DEFAULT_DOCUMENT_SOURCE && !listed.some((l) => l.id === c.id)),
  ].filter((c, i, all) => all.findIndex((o) => o.id === c.id) === i);
  const records = options.secrets ?? memoryRecords();
  const salt = await records.salt();
  const p = new Planner({ credentials, connectors, pairs }, options.prune === true, records, salt);
  await planCredentials(p, desired.credentials ?? []);
  await planConnectors(p, desired.connectors ?? []);
  planPairs(p, desired);
  planLeftovers(p);
  const host = scopeHost(p, desired, created);
  const deletedPairs = new Set(p.deletions.flatMap((c) => (c.kind === 'pair' ? [c.id ?? -1] : [])));
  const scope = await planScope(host, desired, scopeState, deletedPairs);
  if (scope.issues.length > 0) throw stateError(scope.issues);
  // groups before the pairs associated with them, sets after both
  const build = { credential: 0, connector: 1, user_group: 2, pair: 3, document_set: 4 };
  p.changes.sort((a, b) => build[a.kind] - build[b.kind]);
  // deletions: sets and groups, then pairs (their deletion removes a connector left without
  // pairs), then the rest
  const order = { document_set: 0, user_group: 1, pair: 2, connector: 3, credential: 4 };
  const deletions = p.deletions.sort((a, b) => order[a.kind] - order[b.kind]);
  const changes = [...p.changes, ...deletions, ...p.kept];
  const counts: Record<PlanAction, number> = {
    create: 0,
    update: 0,
    unchanged: 0,
    delete: 0,
    keep: 0,
  };
  for (const c of changes) counts[c.action]++;
  const plan: ApplyPlan = {
    baseUrl: kis.baseUrl,
    changes,
    counts,
    empty: counts.create + counts.update + counts.delete === 0,
    warnings: p.warnings,
    pruneRisks: await pruneRisksOf(kis, connectorUpdates(p.steps.values()), pairs, request),
    access: accessPlan({ ...host, groups: scope.groups }, changes),
  };
  INTERNALS.set(plan, { records, salt, steps: p.steps, ids: p.ids, created });
  return plan;
}
