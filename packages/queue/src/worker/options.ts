/** What `startWorker` takes, and what it tells `onDocument` of each document. */
import type { KisClientOptions, Logger } from '@kis/client';
import type { QueueTarget } from '../connection.js';
import type { QueueLimits } from '../limits.js';

export interface StartWorkerOptions extends QueueTarget, QueueLimits {
  /**
   * How to reach the server: `baseUrl`, `apiKey` (from the worker's own environment: keys never
   * travel in jobs or Redis), time-outs, logging.
   */
  kis: KisClientOptions;
  /** The folder the producer's file paths (and relative JSONL files, repositories) are relative to. */
  root?: string | undefined;
  /**
   * SQL connection strings by the names SQL jobs give (`{ crm: process.env.CRM_DATABASE_URL }`):
   * jobs carry the name only, so passwords stay on the machines that use them.
   */
  connections?: Readonly<Record<string, string>> | undefined;
  /** Jobs this worker runs at once = most requests it has in flight. Default 8. */
  concurrency?: number | undefined;
  /** Adapt the worker's in-flight requests to the server (default true), up to `concurrency`. */
  adaptive?: boolean | undefined;
  /** How long a document may be retried, in ms, outage pauses aside (default 600 000). */
  retryForMs?: number | undefined;
  /** Per-attempt time-out in ms (default: the client's). */
  timeoutMs?: number | undefined;
  /** Longest outage to wait through before the worker stops, in ms (default: no limit). */
  maxOutageMs?: number | undefined;
  /** A job's lock, renewed while it runs; a dead worker's jobs are free after it (default 30 000). */
  lockDurationMs?: number | undefined;
  /** How often workers look for jobs whose lock expired (default 30 000). */
  stalledIntervalMs?: number | undefined;
  /** Times a job may be taken back from dead workers before it fails (default 5). */
  maxStalledCount?: number | undefined;
  /** The worker's name, shown in the dashboard (default `kis-worker-<pid>`). */
  name?: string | undefined;
  /** Where warnings go (default: the client's logger, else `console`). */
  logger?: Logger | undefined;
  /** Called with every document's result. */
  onDocument?: ((event: WorkerDocumentEvent) => void) | undefined;
}

export interface WorkerDocumentEvent {
  runId: string;
  jobId: string;
  ordinal: number;
  ref: string | undefined;
  documentId: string | null;
  status: 'created' | 'updated' | 'failed';
  attempts: number;
  /** Why it failed. */
  reason?: string | undefined;
}
