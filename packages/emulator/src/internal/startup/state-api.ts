/** `emulator.state`: read access to what the emulator holds, for tests. */
import type { EmulatorState } from '../../handle.js';
import { credentialSummary, stateView } from '../state-view.js';
import type { Services } from './services.js';

export function stateApi({ store, trust, reset }: Services): EmulatorState {
  return {
    connectors: (o) => store.connectors.list(o),
    credentials: () => store.credentials.list().map(credentialSummary),
    pairs: () => store.pairs.list(),
    documents: (o) => store.documents.listSummaries(o?.limit ?? 1000),
    document: (id) => store.documents.get(id),
    files: () => store.files.list(),
    indexAttempts: (id) =>
      store.indexAttempts.pageOfPair(id, 0, store.indexAttempts.countOfPair(id) || 1),
    groups: () => store.groups.list(),
    documentSets: () => store.documentSets.list(),
    accounts: () => store.accounts.list(),
    documentAccess: (id) => trust.documentAccess(id),
    apiKeys: () => store.apiKeys.list(),
    indexing: () => store.documents.indexCounts(),
    snapshot: (o) =>
      stateView(store, {
        allConnectors: o?.allConnectors ?? false,
        fullDocuments: o?.fullDocuments ?? false,
        documentLimit: o?.documentLimit ?? 1000,
      }),
    reset,
  };
}
