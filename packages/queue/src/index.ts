/**
 * @kis/queue: ingestion spread over many workers and machines, on BullMQ and Redis (README).
 * A producer enqueues jobs that reference documents (`enqueue`); workers send them through the
 * client's bulk engine (`startWorker`); the queue is watched and operated with `queueStatus`,
 * `listFailed`, `retryFailed`, `cleanRun` and `serveDashboard`; a sync's journal takes what the
 * workers stored with `takeAcknowledgements`.
 */
export {
  type TakeAcknowledgementsOptions,
  type TakenAcknowledgements,
  takeAcknowledgements,
} from './acknowledgements.js';
export {
  type CleanResult,
  cleanRun,
  type FailedDocument,
  listFailed,
  type RetryResult,
  type RunSelection,
  retryFailed,
} from './admin.js';
export {
  DEFAULT_PREFIX,
  DEFAULT_QUEUE,
  type QueueTarget,
  type RedisConnection,
} from './connection.js';
export { type Dashboard, type DashboardOptions, serveDashboard } from './dashboard.js';
export {
  type DocumentsSource,
  type EnqueueOptions,
  type EnqueueResult,
  enqueue,
  type FilesSource,
  type GitQueueSource,
  type JsonlSource,
  type QueueSource,
  type SelectableFile,
  type SqlQueueSource,
} from './enqueue.js';
export { QueueUsageError } from './errors.js';
export type { GitJob, JobData, SqlJob } from './job-data.js';
export { type LimitsInForce, parseRate, type QueueLimits, setQueueLimits } from './limits.js';
export type { DocumentFailure, RunSourceDescription, WorkerStop } from './run-store.js';
export {
  type QueueStatus,
  type QueueStatusOptions,
  queueStatus,
  type RunPhase,
  type RunStatus,
} from './status.js';
export {
  type QueueWorker,
  type StartWorkerOptions,
  startWorker,
  type WorkerDocumentEvent,
  type WorkerProgress,
  type WorkerStopReason,
  type WorkerSummary,
} from './worker/worker.js';
