/**
 * Who may see a document, as servers compute it (docs/deployed-servers.md, "Who sees a
 * document"): its readers come only from the pairs that hold it, never from the document itself
 * (`external_access` of a pushed document is dropped, `connectors/models.py:404-423`), and a
 * caller sees it when one of its own access strings is among them. No admin bypass: an admin key
 * sees a private pair's documents only as their credential's creator or through a group.
 */
import { type Edition, groupsGrantAccess } from './editions.js';

/** The access string of everyone (`backend/<server>/access/utils.py:4-19`). */
export const PUBLIC_READER = 'PUBLIC';

/** `user_email:<email>` (`access/models.py:176-199`). */
export function userReader(email: string): string {
  return `user_email:${email}`;
}

/** `group:<group name>`: groups are named, not numbered, in the index. */
export function groupReader(name: string): string {
  return `group:${name}`;
}

/** What the readers of a document are computed from: one pair that holds it. */
export interface OwningPair {
  /** The pair's status: pairs being deleted give nothing (`db/document.py:781-829`). */
  readonly status: string;
  /** `public`, `private` or `sync` (any spelling). */
  readonly access_type: string;
  /** The e-mail of whoever created the pair's credential; null for credential 0 (no owner). */
  readonly credential_owner_email: string | null;
  /** The names of the user groups linked to the pair by a current link. */
  readonly group_names: readonly string[];
}

/**
 * The readers of a document held by `owners`, sorted: `PUBLIC` when a pair is public; the
 * credential's creator of every pair that is not `sync` (public ones included); on the enterprise
 * edition, the groups of every pair that is not `sync` (`access/access.py:74-100`,
 * `ee/.../access/access.py:44-119`, `ee/.../db/user_group.py:406-447`). A document in a `sync`
 * pair alone gets no reader: only a permission sync could name one.
 */
export function documentReaders(owners: readonly OwningPair[], edition: Edition): string[] {
  const readers = new Set<string>();
  for (const pair of owners) {
    if (pair.status === 'DELETING') continue;
    const access = pair.access_type.toLowerCase();
    if (access === 'public') readers.add(PUBLIC_READER);
    if (access === 'sync') continue;
    if (pair.credential_owner_email !== null) {
      readers.add(userReader(pair.credential_owner_email));
    }
    if (groupsGrantAccess(edition)) {
      for (const name of pair.group_names) readers.add(groupReader(name));
    }
  }
  return [...readers].sort();
}

/**
 * The access strings a caller matches with: `PUBLIC`, its own e-mail (an API key's account:
 * `API_KEY__...`), and on the enterprise edition the names of its groups
 * (`access/access.py:114-135`, `ee/.../access/access.py:184-211`).
 */
export function callerReaders(
  email: string,
  groupNames: readonly string[],
  edition: Edition,
): string[] {
  const own = [PUBLIC_READER, userReader(email)];
  if (groupsGrantAccess(edition)) own.push(...groupNames.map(groupReader));
  return own;
}

/** True when a caller matching `caller` may see a document whose readers are `readers`. */
export function maySee(readers: readonly string[], caller: readonly string[]): boolean {
  return caller.some((c) => readers.includes(c));
}

/**
 * True when one pair that holds a document lets a caller see it. Readers are a union over the
 * pairs (`documentReaders`) and a caller needs one of them, so a caller sees a document exactly
 * when one of its pairs grants it: who sees a document follows from its pairs one at a time.
 */
export function pairGrants(pair: OwningPair, caller: readonly string[], edition: Edition): boolean {
  return maySee(documentReaders([pair], edition), caller);
}
