export type { Profile, Role } from '@kis/rules';
export {
  DEFAULT_MAX_BODY_BYTES,
  type Emulator,
  type EmulatorOptions,
  type EmulatorState,
  startEmulator,
} from './emulator.js';
export type { IndexerControl, IndexerOptions } from './internal/indexer.js';
export {
  type ConnectorRecord,
  DEFAULT_CONNECTOR_ID,
  type DocumentRecord,
  type DocumentSummary,
  type IndexCounts,
  type IndexState,
  type PairRecord,
  type PairStatus,
  type UserFileRecord,
} from './internal/store.js';
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
