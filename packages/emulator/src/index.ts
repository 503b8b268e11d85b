export type { Profile, Role } from '@kis/spec/rules';
export {
  DEFAULT_MAX_BODY_BYTES,
  type Emulator,
  type EmulatorOptions,
  type EmulatorState,
  startEmulator,
} from './emulator.js';
export type { IndexerControl, IndexerOptions } from './internal/indexer.js';
export { type ConnectorRecord, DEFAULT_CONNECTOR_ID } from './internal/store/connectors.js';
export type {
  DocumentRecord,
  DocumentSummary,
  IndexCounts,
  IndexState,
} from './internal/store/documents.js';
export type { UserFileRecord } from './internal/store/files.js';
export type { PairRecord, PairStatus } from './internal/store/pairs.js';
export {
  EMULATOR_DEFAULTS,
  EMULATOR_FLAGS,
  type EmulatorFlag,
  type EmulatorFlagValues,
  type EmulatorLaunch,
  EmulatorUsageError,
  emulatorLaunch,
  flagHelp,
  type LaunchEnvironment,
  readyReport,
} from './launcher.js';
