// Who sees a pair's documents, as servers compute it (the rule book's documentReaders): everyone
// when the pair is public, the credential's creator, and the pair's user groups (enterprise
// edition). Read once when a pair is opened: its groups (from the pair, else the pair listing,
// where deployed servers give them) and their names (a server without groups ignores them).
import { FeatureUnavailableError, type KisClient } from '@kis/client';
import { documentReaders, type Edition } from '@kis/rules';

/** What the pair page shows about a pair's access. */
export interface PairAccess {
  /** `public`, `private` or `sync`. */
  accessType: string;
  /** Who sees its documents, in words, one entry each. */
  readers: string[];
}

/** A reader as the index stamps it, in words. */
function readerText(reader: string): string {
  if (reader === 'PUBLIC') return 'everyone (public)';
  if (reader.startsWith('user_email:')) return `owner ${reader.slice('user_email:'.length)}`;
  if (reader.startsWith('group:')) return `group “${reader.slice('group:'.length)}”`;
  return reader;
}

/** Why no one sees the pair's documents. */
function nobody(pair: { status: string; access_type: string }): string {
  if (pair.status === 'DELETING') return 'no one (the pair is being deleted)';
  if (pair.access_type.toLowerCase() === 'sync') {
    return 'no one through the pair (a sync pair: only a permission sync names readers)';
  }
  return 'no one (a private pair with no group, whose credential has no owner)';
}

/** The groups' names, and the edition they tell (a server without groups answers 404). */
async function groupNames(
  kis: KisClient,
): Promise<{ names: Map<number, string>; edition: Edition }> {
  try {
    const groups = await kis.userGroups.list({ includeDefault: true });
    return { names: new Map(groups.map((g) => [g.id, g.name])), edition: 'enterprise' };
  } catch (error) {
    // a key that may not list groups still sees the pair: its groups then go by id
    if (!FeatureUnavailableError.isInstance(error))
      return { names: new Map(), edition: 'enterprise' };
    const edition = error.reason === 'edition' ? 'community' : 'enterprise-below-business';
    return { names: new Map(), edition };
  }
}

/** The access of pair `id`, given what `kis.pairs.get` answered. */
export async function pairAccess(
  kis: KisClient,
  pair: {
    id: number;
    status: string;
    access_type: string;
    groups?: number[] | undefined;
    credential: { user_email?: string | null | undefined };
  },
): Promise<PairAccess> {
  const groupIds =
    pair.groups ?? (await kis.pairs.list()).find((p) => p.cc_pair_id === pair.id)?.groups ?? [];
  const groups =
    groupIds.length === 0
      ? { names: new Map<number, string>(), edition: 'enterprise' as const }
      : await groupNames(kis);
  const readers = documentReaders(
    [
      {
        status: pair.status,
        access_type: pair.access_type,
        credential_owner_email: pair.credential.user_email ?? null,
        group_names: groupIds.map((g) => groups.names.get(g) ?? `#${g}`),
      },
    ],
    groups.edition,
  );
  return {
    accessType: pair.access_type,
    readers: readers.length > 0 ? readers.map(readerText) : [nobody(pair)],
  };
}
