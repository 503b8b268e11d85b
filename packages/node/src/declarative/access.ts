/**
 * Who gains or loses access to which pair, before anything is sent: each pair's readers now and
 * once the plan is applied, as servers compute them (`documentReaders` of the rule book: public
 * pairs, the credential's creator, the pair's groups), and the members groups gain or lose. A pair
 * the plan creates has no reader before; one it deletes none after.
 */
import type { ConnectorStatus, Credential } from '@kis/client';
import { lowerAccess } from '@kis/client';
import { DEFAULT_CREDENTIAL_ID, documentReaders, type OwningPair } from '@kis/rules';
import type { FilePair } from './scope-types.js';
import type { AccessPlan, PairAccessChange, PlannedChange, PlannedPair } from './types.js';
import type { GroupOutcome } from './user-groups.js';

/** The credential owner of a pair whose credential the plan creates: the key's own account. */
export const THIS_KEY_ACCOUNT = "(this key's account)";

/** What the access plan reads. */
export interface AccessInput {
  pairs: readonly ConnectorStatus[];
  credentials: readonly Credential[];
  filePairs: readonly FilePair[];
  /** Undefined when the plan reads no group (their names are then unknown and left out). */
  groups: GroupOutcome | undefined;
}

// groups grant access only on the enterprise edition; a server that lists them has it
const readers = (pair: OwningPair | null) =>
  pair === null ? [] : documentReaders([pair], 'enterprise');

function diff(
  pair: string,
  id: number | null,
  before: OwningPair | null,
  after: OwningPair | null,
): PairAccessChange | undefined {
  const was = readers(before);
  const is = readers(after);
  const gains = is.filter((r) => !was.includes(r));
  const loses = was.filter((r) => !is.includes(r));
  return gains.length + loses.length === 0 ? undefined : { pair, id, gains, loses };
}

/** The e-mail of whoever creates (created) a new pair's credential; null for the default one. */
function ownerOf(change: PlannedPair, credentials: readonly Credential[]): string | null {
  if (change.credential === null || change.credentialId === DEFAULT_CREDENTIAL_ID) return null;
  if (change.credentialId === null) return THIS_KEY_ACCOUNT;
  return credentials.find((c) => c.id === change.credentialId)?.user_email ?? null;
}

/** The access plan of `changes` (every planned change, deletions included). */
export function accessPlan(input: AccessInput, changes: readonly PlannedChange[]): AccessPlan {
  const out: AccessPlan = { pairs: [], members: input.groups?.members ?? [] };
  for (const f of input.filePairs) {
    if (f.change.action !== 'create') continue;
    const after: OwningPair = {
      status: 'ACTIVE',
      access_type: lowerAccess(f.desired.access_type ?? 'public'),
      credential_owner_email: ownerOf(f.change, input.credentials),
      group_names: input.groups?.newPairs.get(f.change) ?? [],
    };
    const change = diff(f.change.name, null, null, after);
    if (change !== undefined) out.pairs.push(change);
  }
  const deleted = new Set(
    changes.flatMap((c) =>
      c.kind === 'pair' && c.action === 'delete' && c.id !== null ? [c.id] : [],
    ),
  );
  for (const p of input.pairs) {
    const id = p.cc_pair_id;
    const now = {
      status: 'ACTIVE',
      access_type: p.access_type,
      credential_owner_email: p.credential.user_email ?? null,
    };
    const before = { ...now, group_names: input.groups?.before.get(id) ?? [] };
    const after = deleted.has(id)
      ? null
      : { ...now, group_names: input.groups?.after.get(id) ?? before.group_names };
    const change = diff(p.name ?? p.connector.name, id, before, after);
    if (change !== undefined) out.pairs.push(change);
  }
  return out;
}
