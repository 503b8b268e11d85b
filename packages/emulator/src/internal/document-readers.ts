// The one place the emulator computes what a document is stamped with in the index: its readers
// (the rule book's `documentReaders`, from the pairs holding it: public, the creator of each
// pair's credential, the names of its current groups on the enterprise edition) and the names of
// the document sets it is in (a current link from a pair holding it that is not being deleted,
// `db/document_set.py:803-868`). Pair facts are read once per snapshot, for a batch of documents.
import { DEFAULT_CREDENTIAL_ID, documentReaders, type Edition, type OwningPair } from '@kis/rules';
import type { Store } from './store/index.js';
import { currentGroupIds } from './store/pairs.js';
import type { IndexStamp } from './store/search-index.js';

interface PairFacts {
  owner: OwningPair;
  setNames: readonly string[];
}

/** What stamps documents, from the pairs as they are when it was taken. */
export interface ReaderSnapshot {
  /** The stamp of a document held by these pairs. */
  stampOf(pairIds: readonly number[]): IndexStamp;
}

/** Every pair's facts, read now. */
function pairFacts(store: Store): Map<number, PairFacts> {
  const groups = new Map(
    store.groups
      .list()
      .filter((g) => !g.is_up_for_deletion)
      .map((g) => [g.id, g.name]),
  );
  const setNames = new Map<number, string[]>();
  for (const set of store.documentSets.list()) {
    if (set.is_deleting) continue;
    for (const pairId of set.cc_pair_ids) {
      setNames.set(pairId, [...(setNames.get(pairId) ?? []), set.name]);
    }
  }
  const facts = new Map<number, PairFacts>();
  for (const pair of store.pairs.list()) {
    const credential =
      pair.credential_id === DEFAULT_CREDENTIAL_ID
        ? undefined
        : store.credentials.get(pair.credential_id);
    const creator = credential?.creator_id ?? null;
    const current = currentGroupIds(pair);
    facts.set(pair.id, {
      owner: {
        status: pair.status,
        access_type: pair.access_type,
        credential_owner_email:
          creator === null ? null : (store.accounts.get(creator)?.email ?? null),
        group_names: current.flatMap((id) => groups.get(id) ?? []),
      },
      setNames: setNames.get(pair.id) ?? [],
    });
  }
  return facts;
}

/** Stamps documents as servers do when they (re)index or sync them. */
export class DocumentReaders {
  constructor(
    private readonly store: Store,
    private readonly edition: Edition,
  ) {}

  snapshot(): ReaderSnapshot {
    const facts = pairFacts(this.store);
    const edition = this.edition;
    return {
      stampOf(pairIds) {
        const owners = pairIds.flatMap((id) => facts.get(id) ?? []);
        const sets = new Set<string>();
        for (const f of owners) {
          if (f.owner.status !== 'DELETING') for (const name of f.setNames) sets.add(name);
        }
        return {
          readers: documentReaders(
            owners.map((f) => f.owner),
            edition,
          ),
          set_names: [...sets].sort(),
        };
      },
    };
  }
}
