export {
  DEFAULT_MAX_BODY_BYTES,
  type Emulator,
  type EmulatorOptions,
  type EmulatorState,
  startEmulator,
} from './emulator.js';
export { makeUrlCompatible, pythonQuote, storedDocumentId } from './internal/ids.js';
export type { IndexerControl, IndexerOptions } from './internal/indexer.js';
export {
  type ConnectorRecord,
  DEFAULT_CC_PAIR_ID,
  DEFAULT_CONNECTOR_ID,
  DEFAULT_CREDENTIAL_ID,
  type DocumentRecord,
  type DocumentSummary,
  type IndexCounts,
  type IndexState,
  type PairRecord,
  SOURCES_WITHOUT_CREDENTIAL,
  type UserFileRecord,
} from './internal/store.js';
