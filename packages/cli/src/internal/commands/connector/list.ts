/**
 * `kis connector list`: one row per pair, from the pair listing (connector names) and the
 * indexing-status listing (status, documents, last success, repeated errors); a pair the second
 * leaves out (the ingestion pair on some servers) is read on its own.
 */
import type {
  CcPairFullInfo,
  ConnectorStatus,
  KisClient,
  SourceIndexingStatuses,
} from '@kis/client';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { pairCall } from '../../pair-errors.js';
import { tableLines } from '../../table.js';

export function listCommand({ act, command }: CommandEnv): Command {
  return command('list')
    .description(
      'list the connector/credential pairs: connector, source, pair id, status, documents, last success, in error',
    )
    .addHelpText(
      'after',
      `${EXAMPLES(['kis connector list', 'kis --json connector list'])}\n${wrap(
        '"in error" is yes when the last index attempts all failed. Deployed servers leave the ingestion pair (1) out of their listings.',
      )}\n`,
    )
    .action(act((ctx) => runConnectorList(ctx)));
}

/** One row of the listing, as `--json` prints it. */
export interface PairRow {
  connector: string;
  connector_id: number;
  source: string;
  cc_pair_id: number;
  /** The pair's own name (often the connector's). */
  name: string | null;
  credential_id: number;
  status: string;
  documents: number;
  /** When the newest successful index attempt started, or null. */
  last_success: string | null;
  /** The last attempts all failed (`in_repeated_error_state`). */
  in_error: boolean;
  /** An index attempt is running. */
  indexing: boolean;
}

interface IndexingFacts {
  status: string;
  documents: number;
  last_success: string | null;
  in_error: boolean;
  indexing: boolean;
}

/** The indexing facts of every pair the indexing-status listing has, by pair id. */
function factsById(sources: readonly SourceIndexingStatuses[]): Map<number, IndexingFacts> {
  const facts = new Map<number, IndexingFacts>();
  for (const source of sources) {
    for (const row of source.indexing_statuses) {
      // federated connectors add rows of their own shape, without a pair
      if (!('cc_pair_id' in row)) continue;
      facts.set(row.cc_pair_id, {
        status: row.cc_pair_status,
        documents: row.docs_indexed,
        last_success: row.last_success ?? null,
        in_error: row.in_repeated_error_state,
        indexing: row.in_progress,
      });
    }
  }
  return facts;
}

function factsOf(pair: CcPairFullInfo): IndexingFacts {
  return {
    status: pair.status,
    documents: pair.num_docs_indexed,
    last_success: pair.last_indexed ?? null,
    in_error: pair.in_repeated_error_state,
    indexing: pair.indexing,
  };
}

/** Every pair with its indexing facts, sorted by pair id. */
export async function pairRows(client: KisClient, baseUrl: string): Promise<PairRow[]> {
  const pairs: ConnectorStatus[] = await pairCall(
    {
      operationId: 'listConnectorStatus',
      doing: 'listing the pairs',
      baseUrl,
      purpose: 'listIndexingStatus',
    },
    () => client.pairs.list(),
  );
  const facts = factsById(
    await pairCall(
      { operationId: 'listIndexingStatus', doing: "reading the pairs' indexing status", baseUrl },
      () => client.pairs.indexingStatus({ get_all_connectors: true }),
    ),
  );
  const rows: PairRow[] = [];
  for (const p of [...pairs].sort((a, b) => a.cc_pair_id - b.cc_pair_id)) {
    const id = p.cc_pair_id;
    const known =
      facts.get(id) ??
      factsOf(
        await pairCall(
          { operationId: 'getCcPair', doing: `reading pair ${id}`, ccPairId: id, baseUrl },
          () => client.pairs.get(id),
        ),
      );
    rows.push({
      connector: p.connector.name,
      connector_id: p.connector.id,
      source: p.connector.source,
      cc_pair_id: id,
      name: p.name ?? null,
      credential_id: p.credential.id,
      ...known,
    });
  }
  return rows;
}

/** `kis connector list`: the table, or one JSON line per pair and a summary. */
export async function runConnectorList(ctx: Context): Promise<ExitCodeValue> {
  const client = await ctx.client();
  const { baseUrl } = await ctx.connection();
  const rows = await pairRows(client, baseUrl);
  const { out } = ctx;
  for (const row of rows) out.result(row);
  out.result({ summary: { count: rows.length } });
  if (out.mode.json) return ExitCode.Ok;
  if (rows.length === 0) {
    out.human('No pairs.');
    return ExitCode.Ok;
  }
  const lines = tableLines(
    ['CONNECTOR', 'SOURCE', 'PAIR', 'STATUS', 'DOCUMENTS', 'LAST SUCCESS', 'IN ERROR'],
    rows.map((r) => [
      r.connector,
      r.source,
      String(r.cc_pair_id),
      r.indexing ? `${r.status} (indexing)` : r.status,
      String(r.documents),
      r.last_success ?? 'never',
      r.in_error ? 'yes' : 'no',
    ]),
  );
  out.human(out.out.bold(lines[0] ?? ''));
  for (const line of lines.slice(1)) out.human(line);
  return ExitCode.Ok;
}
