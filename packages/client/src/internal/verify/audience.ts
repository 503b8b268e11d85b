/**
 * Who should see a pair's documents, as servers compute it (rule book `document-access.ts`): a
 * document is seen by a caller when one of the pairs holding it grants that caller (public, its
 * credential's creator, its groups on the enterprise edition). The verified pair's grant decides
 * for all its documents; when it does not grant, the listings of the other pairs that do say
 * which of its documents the caller still sees. What cannot be known (a server without `/me`,
 * groups a key may not list) makes the expectation unknown, never a guess.
 */
import {
  callerReaders,
  DEFAULT_CC_PAIR_ID,
  type Edition,
  groupsGrantAccess,
  type OwningPair,
  pairGrants,
} from '@kis/rules';
import { FeatureUnavailableError } from '../../errors.js';
import type { KisClient } from '../../kis-client.js';
import type { IdSet } from './id-set.js';

/** A pair as verifying reads it: its facts, and its group ids when their names are unknown. */
interface PairFacts {
  id: number;
  owner: OwningPair;
  /** Group ids whose names could not be read (the grant through them is unknown). */
  unnamedGroups: number;
  /** The status was read (`pairs.get`), not assumed. */
  statusRead: boolean;
}

/** What every audience's expectation is computed from, read once per run. */
export interface AccessFacts {
  edition: Edition;
  /** Group names by member id; undefined when the groups could not be listed. */
  members: Map<string, string[]> | undefined;
  /** Every pair known; undefined when the pairs could not be listed. */
  pairs: Map<number, PairFacts> | undefined;
  /** Why facts are missing, said once. */
  notes: string[];
  /** A pair's status now, read with the verifying key (undefined: could not be read). */
  status(pairId: number): Promise<string | undefined>;
}

/** Whether a caller should see each document of the verified pair. */
export interface Audience {
  /** True or false, or undefined when it cannot be known. */
  expects(documentId: string): boolean | undefined;
  /** Why it is unknown for some or all documents, if it is. */
  readonly unknown: string | undefined;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The groups' names and members, and the edition their listing reveals. */
async function readGroups(
  kis: KisClient,
  notes: string[],
): Promise<{
  edition: Edition;
  names: Map<number, string> | undefined;
  members: AccessFacts['members'];
}> {
  try {
    const groups = await kis.userGroups.list({ includeDefault: true });
    const names = new Map(groups.map((g) => [g.id, g.name]));
    const members = new Map<string, string[]>();
    for (const group of groups) {
      for (const user of group.users)
        members.set(user.id, [...(members.get(user.id) ?? []), group.name]);
    }
    return { edition: 'enterprise', names, members };
  } catch (error) {
    if (FeatureUnavailableError.isInstance(error) && error.reason === 'edition') {
      return { edition: 'community', names: new Map(), members: new Map() };
    }
    notes.push(
      `the user groups could not be read (${message(error)}): access through groups is unknown`,
    );
    const edition = FeatureUnavailableError.isInstance(error)
      ? 'enterprise-below-business'
      : 'enterprise';
    return { edition, names: undefined, members: undefined };
  }
}

/** A pair as the listings answer it. */
interface PairRecord {
  access_type: string;
  credential: { user_email?: string | null | undefined };
  groups: number[];
  status: string | undefined;
}

function pairFacts(
  id: number,
  pair: PairRecord,
  names: Map<number, string> | undefined,
): PairFacts {
  const named = pair.groups.flatMap((g) => names?.get(g) ?? []);
  return {
    id,
    owner: {
      status: pair.status ?? 'ACTIVE',
      access_type: pair.access_type,
      credential_owner_email: pair.credential.user_email ?? null,
      group_names: named,
    },
    unnamedGroups: pair.groups.length - named.length,
    statusRead: pair.status !== undefined,
  };
}

/** Reads the pairs, the groups and the edition, with the key that verifies. */
export async function readAccessFacts(kis: KisClient, ccPairId: number): Promise<AccessFacts> {
  const notes: string[] = [];
  const { edition, names, members } = await readGroups(kis, notes);
  const records = new Map<number, PairRecord>();
  try {
    for (const p of await kis.pairs.list()) records.set(p.cc_pair_id, { ...p, status: undefined });
  } catch (error) {
    notes.push(
      `the pairs could not be listed (${message(error)}): who may see the documents is unknown`,
    );
    return { edition, members, pairs: undefined, notes, status: async () => undefined };
  }
  // the verified pair's status (a deleting pair grants nobody), and pair 1, which the main line
  // leaves out of the list (deployed servers send a pair's groups in the list only)
  for (const id of new Set([ccPairId, DEFAULT_CC_PAIR_ID])) {
    try {
      const full = await kis.pairs.get(id);
      const groups = records.get(id)?.groups ?? full.groups ?? [];
      records.set(id, { ...full, groups, status: full.status });
    } catch (error) {
      if (id === ccPairId && !records.has(id)) {
        notes.push(
          `pair ${id} could not be read (${message(error)}): who may see its documents is unknown`,
        );
      }
    }
  }
  const pairs = new Map([...records].map(([id, r]) => [id, pairFacts(id, r, names)]));
  const statuses = new Map<number, Promise<string | undefined>>();
  const status = (id: number) => {
    let read = statuses.get(id);
    if (read === undefined) {
      read = kis.pairs.get(id).then(
        (p) => p.status,
        () => undefined,
      );
      statuses.set(id, read);
    }
    return read;
  };
  return { edition, members, pairs, notes, status };
}

const unknownAudience = (why: string): Audience => ({ expects: () => undefined, unknown: why });

/**
 * Whether `pair` grants a caller with `readers`: unknown when it might through groups whose
 * names, or the caller's own groups, could not be read.
 */
function grants(
  pair: PairFacts,
  readers: readonly string[],
  facts: AccessFacts,
  callerGroupsKnown: boolean,
): boolean | undefined {
  if (pairGrants(pair.owner, readers, facts.edition)) return true;
  const hasGroups = pair.unnamedGroups > 0 || pair.owner.group_names.length > 0;
  if (
    groupsGrantAccess(facts.edition) &&
    hasGroups &&
    (pair.unnamedGroups > 0 || !callerGroupsKnown)
  ) {
    return pair.owner.status === 'DELETING' ? false : undefined;
  }
  return false;
}

/**
 * The audience of the key behind `client` for pair `ccPairId`'s documents. `listing` reads another
 * pair's ids (cached by the caller: audiences share them).
 */
export async function audienceOf(
  client: KisClient,
  facts: AccessFacts,
  ccPairId: number,
  listing: (pairId: number) => Promise<IdSet | undefined>,
): Promise<Audience> {
  let me: { id: string; email: string };
  try {
    me = await client.identity.me();
  } catch (error) {
    return unknownAudience(`who the key is could not be read (${message(error)})`);
  }
  const { pairs } = facts;
  const verified = pairs?.get(ccPairId);
  if (pairs === undefined || verified === undefined) {
    return unknownAudience(facts.notes[facts.notes.length - 1] ?? `pair ${ccPairId} is not listed`);
  }
  const groups = facts.members?.get(me.id);
  const groupsKnown = facts.members !== undefined;
  const readers = callerReaders(me.email, groups ?? [], facts.edition);
  const own = grants(verified, readers, facts, groupsKnown);
  if (own === true) return { expects: () => true, unknown: undefined };
  // documents of the verified pair held by other pairs that grant (or may grant) the caller
  const granting: IdSet[] = [];
  const maybe: IdSet[] = [];
  // a granting pair whose listing could not be read may hold any document
  let unlisted = false;
  for (const pair of pairs.values()) {
    if (pair.id === ccPairId) continue;
    const grant = grants(pair, readers, facts, groupsKnown);
    if (grant === false) continue;
    if (!pair.statusRead && (await facts.status(pair.id)) === 'DELETING') continue;
    const ids = await listing(pair.id);
    if (ids === undefined) unlisted = true;
    else (grant ? granting : maybe).push(ids);
  }
  const why =
    own === undefined || maybe.length > 0
      ? 'the groups that grant access could not all be named'
      : unlisted
        ? 'the documents of a pair that grants access could not be listed'
        : undefined;
  return {
    expects: (id) => {
      if (granting.some((set) => set.has(id))) return true;
      if (own === undefined || unlisted || maybe.some((set) => set.has(id))) return undefined;
      return false;
    },
    unknown: why,
  };
}
