/**
 * SET and GROUP arguments: an id, or a name, found in the listing of document sets or user groups
 * (names are unique on servers, so a name fits one at most); and accounts of a group by id, or by
 * the e-mail a listed group shows (no route lists accounts). A reference that fits nothing is a
 * one-line usage error naming what the listing holds.
 */
import { UsageError } from './errors.js';

/** What a set or group listing shows of each. */
export interface Named {
  readonly id: number;
  readonly name: string;
}

/** `document set` or `user group`: how messages name the kind. */
export type ScopeNoun = 'document set' | 'user group';

/** "a", "b", … and 4 more: what the listing holds, to say what was there. */
function someNames(rows: readonly Named[], noun: ScopeNoun): string {
  if (rows.length === 0) return `the server lists no ${noun}`;
  const names = rows.map((r) => JSON.stringify(r.name)).sort();
  const more = names.length > 8 ? ` and ${names.length - 8} more` : '';
  return `${noun}s: ${names.slice(0, 8).join(', ')}${more}`;
}

/** The row `ref` (an id or a name) names among `rows`; a usage error when it names none. */
export function findNamed<T extends Named>(noun: ScopeNoun, ref: string, rows: readonly T[]): T {
  const text = ref.trim();
  const found = /^\d+$/.test(text)
    ? rows.find((r) => r.id === Number(text))
    : rows.find((r) => r.name === text);
  if (found !== undefined) return found;
  const what = /^\d+$/.test(text) ? `${noun} ${text}` : `"${text}"`;
  throw new UsageError(
    `${what}: no ${noun} of that ${/^\d+$/.test(text) ? 'id' : 'name'} is listed to this key (${someNames(rows, noun)})`,
  );
}

/** The rows `refs` name, in order and without repeats. */
export function findAllNamed<T extends Named>(
  noun: ScopeNoun,
  refs: readonly string[],
  rows: readonly T[],
): T[] {
  const out: T[] = [];
  for (const ref of refs) {
    const row = findNamed(noun, ref, rows);
    if (!out.includes(row)) out.push(row);
  }
  return out;
}

/** `document set 4 "Handbook"`: how messages name a set or a group. */
export function namedLabel(noun: ScopeNoun, row: Named): string {
  return `${noun} ${row.id} "${row.name}"`;
}

/** Account ids from ids or e-mails; an e-mail no listed group shows is a usage error. */
export function accountIds(
  refs: readonly string[],
  groups: readonly { users: readonly { id: string; email: string }[] }[],
): string[] {
  const byEmail = new Map(groups.flatMap((g) => g.users.map((u) => [u.email, u.id] as const)));
  return [
    ...new Set(
      refs.map((ref) => {
        if (!ref.includes('@')) return ref;
        const id = byEmail.get(ref);
        if (id === undefined) {
          throw new UsageError(
            `"${ref}": no account with this e-mail is in a group listed to this key; give the account's id`,
          );
        }
        return id;
      }),
    ),
  ];
}
