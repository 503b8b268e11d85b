export type { Profile, Role } from '@kis/rules';
export {
  DEFAULT_DELETION_DELAY_MS,
  DEFAULT_MAX_BODY_BYTES,
  type Emulator,
  type EmulatorOptions,
  type EmulatorState,
  startEmulator,
} from './emulator.js';
export type { IndexerControl, IndexerOptions } from './internal/indexer.js';
export type { ApiKeyRecord } from './internal/store/api-keys.js';
export { type ConnectorRecord, DEFAULT_CONNECTOR_ID } from './internal/store/connectors.js';
export type {
  DocumentRecord,
  DocumentSummary,
  IndexCounts,
  IndexState,
} from './internal/store/documents.js';
export type { UserFileRecord } from './internal/store/files.js';
export {
  ADMIN_GROUP_ID,
  BASIC_GROUP_ID,
  CURATORS_GROUP_ID,
  type GroupRecord,
} from './internal/store/groups.js';
export type { IndexAttemptRecord } from './internal/store/index-attempts.js';
export type { DeletionPhase, PairRecord, PairStatus } from './internal/store/pairs.js';
export { ATTEMPT_OUTCOMES, type AttemptOutcome } from './internal/tasks/outcomes.js';
export type { PairTaskOptions, PairTasksControl } from './internal/tasks/pair-tasks.js';
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
