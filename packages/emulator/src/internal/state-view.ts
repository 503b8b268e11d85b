// The JSON state view (`GET /_emulator/state`): what tests and external checkers compare against.
// It never contains secrets: credentials appear with their names, sources and the keys (not the
// values) of their JSON.
import type { CredentialRecord } from './store/credentials.js';
import type { DocumentRecord, DocumentSummary } from './store/documents.js';
import type { Store } from './store/index.js';

export interface StateViewOptions {
  /** Include connectors that are not fully created (no credential associated yet). */
  allConnectors: boolean;
  /** Include each document's sections, metadata and owners. */
  fullDocuments: boolean;
  /** Most recent documents to include; -1 for all. */
  documentLimit: number;
}

export function credentialSummary(c: CredentialRecord) {
  return {
    id: c.id,
    name: c.name,
    source: c.source,
    admin_public: c.admin_public,
    curator_public: c.curator_public,
    groups: c.groups,
    credential_json_keys: Object.keys(c.credential_json),
    private_key_file:
      c.private_key === null
        ? null
        : {
            file_name: c.private_key.file_name,
            size: c.private_key.size,
            field_key: c.private_key.field_key,
            type_definition_key: c.private_key.type_definition_key,
          },
    time_created: c.time_created,
    time_updated: c.time_updated,
  };
}

function documentView(d: DocumentSummary | DocumentRecord) {
  const { seq: _seq, ...rest } = d;
  return rest;
}

export function stateView(store: Store, options: StateViewOptions) {
  const pairs = store.pairs.list();
  const counts = store.pairs.documentCounts();
  const pairIdsByConnector = new Map<number, number[]>();
  for (const p of pairs) {
    const list = pairIdsByConnector.get(p.connector_id) ?? [];
    list.push(p.id);
    pairIdsByConnector.set(p.connector_id, list);
  }
  const connectors = store.connectors.list({ all: options.allConnectors }).map((c) => ({
    ...c,
    fully_created: pairIdsByConnector.has(c.id),
    cc_pair_ids: pairIdsByConnector.get(c.id) ?? [],
  }));
  const documents = options.fullDocuments
    ? store.documents.list(options.documentLimit)
    : store.documents.listSummaries(options.documentLimit);
  const attempts = (id: number) => {
    const summary = store.indexAttempts.summaryOfPair(id);
    return { index_attempts: summary.count, last_attempt_status: summary.newest?.status ?? null };
  };
  return {
    connectors,
    cc_pairs: pairs.map((p) => ({
      ...p,
      document_count: counts.get(p.id) ?? 0,
      ...attempts(p.id),
    })),
    credentials: store.credentials.list().map(credentialSummary),
    groups: store.groups.list(),
    // created keys: names, roles and groups; neither the keys nor their masked forms
    api_keys: store.apiKeys.list().map(({ display: _display, ...key }) => key),
    files: store.files.list(),
    indexing: store.documents.indexCounts(),
    documents_total: store.documents.indexCounts().total,
    documents: documents.map(documentView),
  };
}
