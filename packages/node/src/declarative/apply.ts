/**
 * `apply`: carries out a plan in dependency order (credentials, connectors, groups, pairs, sets,
 * then deletions), recording what each credential was sent as it goes. It stops at the first failure:
 * every step is safe to repeat or is found done by the next plan (entries are matched by name and
 * source), so the next apply converges.
 */

import {
  APIError,
  type CredentialDataUpdateRequest,
  type KisClient,
  KisError,
  lowerAccess,
  type RequestOptions,
} from '@kis/client';
import { INTERNALS, type Step } from './plan.js';
import { pruneRiskText } from './prune-risks.js';
import { carryOutScope } from './scope-apply.js';
import { idOf as refId } from './scope-types.js';
import { fingerprints } from './secrets.js';
import type {
  AppliedChange,
  ApplyOptions,
  ApplyPlan,
  ApplyResult,
  CreatedRecords,
  PlannedChange,
  SecretRecords,
} from './types.js';

interface Run {
  kis: KisClient;
  records: SecretRecords;
  salt: string;
  ids: Map<string, number>;
  request: RequestOptions;
  waitMs: number;
  created: CreatedRecords;
  syncWaitMs: number;
  onSyncWait: ((what: string) => void) | undefined;
}

/** A missing id is a plan whose earlier step did not run: a bug, not a server answer. */
function idOf(run: Run, key: string): number {
  const id = run.ids.get(key);
  if (id === undefined) throw new Error(`kis.apply: no id for ${key.replace('\u0000', ' ')}`);
  return id;
}

async function record(run: Run, id: number, json: Record<string, unknown>, merge: boolean) {
  const before = merge ? ((await run.records.get(id)) ?? {}) : {};
  await run.records.set(id, { ...before, ...(await fingerprints(run.salt, json)) });
}

/** A credential delete answered 400: done when the credential is gone (a repeated delete). */
async function credentialGone(run: Run, id: number): Promise<boolean> {
  try {
    await run.kis.credentials.get(id, run.request);
    return false;
  } catch (err) {
    if (APIError.isInstance(err) && (err.status === 401 || err.status === 404)) return true;
    throw err;
  }
}

/** Carries out one step; resolves with the id it produced or touched. */
async function carryOut(run: Run, step: Step, change: PlannedChange): Promise<number | null> {
  const { kis, request } = run;
  switch (step.type) {
    case 'credential-create': {
      const d = step.desired;
      const json = d.credential_json ?? {};
      const created = await kis.credentials.create(
        {
          name: d.name,
          source: d.source,
          credential_json: json,
          admin_public: d.admin_public ?? true,
          curator_public: d.curator_public ?? false,
          groups: d.groups ?? [],
        },
        request,
      );
      run.ids.set(step.key, created.id);
      await record(run, created.id, json, false);
      return created.id;
    }
    case 'credential-update': {
      const json = step.desired.credential_json ?? {};
      const body: CredentialDataUpdateRequest = { name: step.desired.name, credential_json: json };
      await kis.credentials.update(step.id, body, request);
      await record(run, step.id, json, true);
      return step.id;
    }
    case 'connector-create': {
      const created = await kis.connectors.create(step.body, request);
      run.ids.set(step.key, created.id);
      return created.id;
    }
    case 'connector-update':
      await kis.connectors.update(step.id, step.body, request);
      return step.id;
    case 'pair-create': {
      const d = step.desired;
      const connectorId = idOf(run, step.connectorKey);
      const credentialId = step.credentialKey === null ? 0 : idOf(run, step.credentialKey);
      if (change.kind === 'pair') Object.assign(change, { connectorId, credentialId });
      const answer = await kis.connectors.associateCredential(
        connectorId,
        credentialId,
        {
          name: d.pair_name ?? d.name,
          access_type: lowerAccess(d.access_type ?? 'public'),
          ...(step.groups ? { groups: step.groups.map(refId) } : {}),
        },
        request,
      );
      return answer.ccPairId;
    }
    case 'pair-rename':
      await kis.pairs.rename(step.id, step.name, request);
      return step.id;
    case 'pair-delete':
      await kis.pairs.requestDeletion(step.connectorId, step.credentialId, request);
      await kis.pairs.waitUntilGone(step.id, { ...request, waitMs: run.waitMs });
      return step.id;
    case 'connector-delete':
      await kis.connectors.delete(step.id, request);
      return step.id;
    case 'credential-delete':
      try {
        await kis.credentials.delete(step.id, request);
      } catch (err) {
        if (
          !(APIError.isInstance(err) && err.status === 400 && (await credentialGone(run, step.id)))
        ) {
          throw err;
        }
      }
      await run.records.delete(step.id);
      return step.id;
    case 'group-create':
    case 'group-update':
    case 'group-delete':
    case 'set-create':
    case 'set-update':
    case 'set-delete':
      return carryOutScope(run, step);
  }
}

/**
 * Carries out a plan from `plan()` in dependency order (credentials, connectors, groups, pairs,
 * sets, then deletions); stops at the first failure (the next plan resumes).
 */
export async function apply(
  kis: KisClient,
  plan: ApplyPlan,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const internals = INTERNALS.get(plan);
  if (internals === undefined) {
    throw new TypeError('apply(kis, plan): plan must be what plan() resolved with');
  }
  if (plan.pruneRisks.length > 0 && options.deletePushedDocuments !== true) {
    throw new KisError(
      `kis.apply: ${pruneRiskText(plan.pruneRisks)}; nothing was changed (pass deletePushedDocuments: true to apply it anyway, or set their prune_freq to null)`,
    );
  }
  const records = options.secrets ?? internals.records;
  const run: Run = {
    kis,
    records,
    salt: await records.salt(),
    ids: new Map(internals.ids),
    request: options.signal ? { signal: options.signal } : {},
    waitMs: options.deletionTimeoutMs ?? 600_000,
    created: options.created ?? internals.created,
    syncWaitMs: options.syncTimeoutMs ?? 600_000,
    onSyncWait: options.onSyncWait,
  };
  const applied: AppliedChange[] = [];
  const pending = plan.changes.filter((c) => internals.steps.has(c));
  for (const [i, change] of pending.entries()) {
    const step = internals.steps.get(change) as Step;
    let done: AppliedChange;
    try {
      done = { change, ok: true, id: await carryOut(run, step, change) };
    } catch (err) {
      done = {
        change,
        ok: false,
        id: change.id,
        error: err instanceof Error ? err : new Error(String(err)),
      };
    }
    if (done.ok && change.id === null && done.id !== null) change.id = done.id;
    applied.push(done);
    options.onChange?.(done);
    if (!done.ok) return { ok: false, applied, skipped: pending.slice(i + 1) };
  }
  return { ok: true, applied, skipped: [] };
}
