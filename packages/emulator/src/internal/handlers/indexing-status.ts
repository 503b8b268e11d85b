// The indexing-status listing: the pairs the caller can see, filtered as the body asks, grouped by
// source (sorted), each source with counts over all its pairs and one page of 10 rows
// (`source_to_page`, from 1; `get_all_connectors`: every row). The ingestion pair is never
// listed. The emulator has one set of search settings and no federated connectors: with
// `secondary_index` it lists nothing, and it never adds federated rows.
import { DEFAULT_CC_PAIR_ID } from '@kis/rules';
import type { Handlers, Schemas } from '../op-types.js';
import { pairIndexingStatusView } from '../pair-views.js';
import type { HandlerContext } from './context.js';
import { pairRights } from './pair-lookup.js';

type Request = Schemas['IndexingStatusRequest'];
type Row = Schemas['PairIndexingStatus'];

/** Rows per page of one source. */
const ROWS_PER_PAGE = 10;

function countMatches(request: Request, documents: number): boolean {
  const value = request.docs_count_value;
  if (request.docs_count_operator == null || value == null) return true;
  if (request.docs_count_operator === '>') return documents > value;
  if (request.docs_count_operator === '<') return documents < value;
  return documents === value;
}

/** Whether a row passes the body's filters. */
function matches(request: Request, row: Row): boolean {
  const accessTypes = request.access_type_filters ?? [];
  const statuses = request.last_status_filters ?? [];
  const name = request.name_filter?.toLowerCase();
  return (
    (request.source == null || row.source === request.source) &&
    (accessTypes.length === 0 || accessTypes.includes(row.access_type)) &&
    (statuses.length === 0 || (row.last_status !== null && statuses.includes(row.last_status))) &&
    (name == null || (row.name ?? '').toLowerCase().includes(name)) &&
    countMatches(request, row.docs_indexed)
  );
}

function sourceEntry(
  request: Request,
  source: Row['source'],
  rows: Row[],
): Schemas['SourceIndexingStatuses'] {
  const page = request.get_all_connectors ? 1 : (request.source_to_page?.[source] ?? 1);
  const shown = request.get_all_connectors
    ? rows
    : page < 1
      ? []
      : rows.slice((page - 1) * ROWS_PER_PAGE, page * ROWS_PER_PAGE);
  return {
    source,
    summary: {
      total_connectors: rows.length,
      active_connectors: rows.filter((r) => r.cc_pair_status === 'ACTIVE').length,
      public_connectors: rows.filter((r) => r.access_type === 'public').length,
      total_docs_indexed: rows.reduce((sum, r) => sum + r.docs_indexed, 0),
    },
    current_page: page,
    total_pages: Math.ceil(rows.length / ROWS_PER_PAGE),
    indexing_statuses: shown,
  };
}

export function indexingStatusHandlers(ctx: HandlerContext): Pick<Handlers, 'listIndexingStatus'> {
  const { store } = ctx;
  return {
    listIndexingStatus({ body, caller }) {
      if (body.secondary_index) return { status: 200, body: [] };
      const rights = pairRights(ctx, caller);
      const counts = store.pairs.documentCounts();
      const bySource = new Map<Row['source'], Row[]>();
      for (const pair of store.pairs.list()) {
        const connector = store.connectors.get(pair.connector_id);
        if (pair.id === DEFAULT_CC_PAIR_ID || connector === undefined) continue;
        const source: Row['source'] = connector.source;
        const attempts = store.indexAttempts.summaryOfPair(pair.id);
        const documents = counts.get(pair.id) ?? 0;
        const row = pairIndexingStatusView(pair, source, documents, attempts, rights);
        if (matches(body, row)) bySource.set(source, [...(bySource.get(source) ?? []), row]);
      }
      const sources = [...bySource.keys()].sort();
      return { status: 200, body: sources.map((s) => sourceEntry(body, s, bySource.get(s) ?? [])) };
    },
  };
}
