/**
 * PAIR arguments: a pair id, or a connector's (or the pair's) name, found in the pair listing
 * (`kis.pairs.list`). A name that fits no pair, or several, is a one-line usage error.
 */
import type { CcPairFullInfo, ConnectorStatus, KisClient } from '@kis/client';
import { pairNames } from '@kis/rules';
import { UsageError } from './errors.js';
import { pairCall } from './pair-errors.js';

/** "a, b, c and 4 more": the names a listing holds, to say what was there. */
function someNames(rows: readonly ConnectorStatus[]): string {
  const names = [...new Set(rows.flatMap(pairNames))].sort();
  if (names.length === 0) return 'the server lists no pair';
  const shown = names.slice(0, 8).map((n) => JSON.stringify(n));
  return `names: ${shown.join(', ')}${names.length > 8 ? ` and ${names.length - 8} more` : ''}`;
}

/** The rows of `rows` that answer to `name` (a PAIR argument with it fits each of them). */
export function pairsNamed(name: string, rows: readonly ConnectorStatus[]): ConnectorStatus[] {
  return rows.filter((r) => pairNames(r).includes(name));
}

/** The pair id `ref` names among `rows`; a usage error when none or several fit. */
export function pairIdByName(ref: string, rows: readonly ConnectorStatus[]): number {
  const ids = [...new Set(pairsNamed(ref, rows).map((r) => r.cc_pair_id))];
  if (ids.length === 1 && ids[0] !== undefined) return ids[0];
  if (ids.length === 0) {
    throw new UsageError(
      `PAIR "${ref}": no pair has a connector or pair of that name (${someNames(rows)}); give a pair id or a name from \`kis connector list\``,
    );
  }
  ids.sort((a, b) => a - b);
  throw new UsageError(
    `PAIR "${ref}" names ${ids.length} pairs (ids ${ids.join(', ')}); give the pair id instead`,
  );
}

/**
 * The pair ids of PAIR arguments, in order and without repeats: digits are an id, anything else a
 * name looked up in the pair listing (asked for once, only when a name is given).
 */
export async function resolvePairIds(
  client: KisClient,
  refs: readonly string[],
  baseUrl: string,
  purpose?: string,
): Promise<number[]> {
  let rows: ConnectorStatus[] | undefined;
  const ids: number[] = [];
  for (const raw of refs) {
    const ref = raw.trim();
    if (ref === '') throw new UsageError('PAIR: expected a pair id or a connector name, got ""');
    let id: number;
    if (/^\d+$/.test(ref)) {
      id = Number(ref);
    } else {
      rows ??= await pairCall(
        { operationId: 'listConnectorStatus', doing: 'finding pairs by name', baseUrl, purpose },
        () => client.pairs.list(),
      );
      id = pairIdByName(ref, rows);
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** `pair 5 "docs"`: how messages name a pair. */
export function pairLabel(pair: Pick<CcPairFullInfo, 'id' | 'name' | 'connector'>): string {
  const name = pair.name ?? pair.connector.name;
  return name ? `pair ${pair.id} "${name}"` : `pair ${pair.id}`;
}

/**
 * Every pair PAIR arguments name, read from the server before anything is changed: an unknown
 * one stops the command (exit 2) with nothing done. `purpose` is the operation the command reads
 * them for: a refused key is told the permission of both.
 */
export async function loadPairs(
  client: KisClient,
  refs: readonly string[],
  baseUrl: string,
  purpose?: string,
): Promise<CcPairFullInfo[]> {
  const ids = await resolvePairIds(client, refs, baseUrl, purpose);
  const pairs: CcPairFullInfo[] = [];
  for (const id of ids) {
    const call = {
      operationId: 'getCcPair',
      doing: `reading pair ${id}`,
      ccPairId: id,
      baseUrl,
      purpose,
    };
    pairs.push(await pairCall(call, () => client.pairs.get(id)));
  }
  return pairs;
}
