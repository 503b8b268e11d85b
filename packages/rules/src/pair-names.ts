/**
 * The names a pair answers to wherever kis takes a pair by name (PAIR arguments, the pairs of a
 * document set in `kis.yaml`): its connector's name, and its own when it differs. Pair names are
 * not unique on servers, so a name may fit several pairs; callers refuse such a name.
 */

/** A pair as listings show it: its own name and its connector's. */
export interface NamedPair {
  readonly name?: string | null | undefined;
  readonly connector: { readonly name: string };
}

/** The names `pair` answers to: its connector's, then its own when it differs. */
export function pairNames(pair: NamedPair): string[] {
  const names = [pair.connector.name];
  if (pair.name && pair.name !== pair.connector.name) names.push(pair.name);
  return names;
}
