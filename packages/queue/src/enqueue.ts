/**
 * The producer: `enqueue(source, options)` plans a source into jobs that reference their
 * documents (README, "Jobs") and adds them in bulk, one chunk at a time: the next chunk is read
 * only once Redis has the last one, so memory stays flat however large the source. With
 * `maxWaitingJobs`, it also waits while the queue holds that many jobs waiting.
 */

import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { Queue } from 'bullmq';
import {
  checkConnection,
  createRedis,
  describeConnection,
  type QueueTarget,
  queueNames,
} from './connection.js';
import { QueueUsageError } from './errors.js';
import { JOB_VERSION, type JobData, type JobItemOptions, jobIdOf } from './job-data.js';
import { DEFAULT_JOB_ATTEMPTS, jobOptions } from './job-options.js';
import { readLimits } from './limits.js';
import {
  DEFAULT_MAX_DOCUMENT_BYTES,
  type DocumentsSource,
  documentBatches,
} from './plan/documents.js';
import { checkRoot, type FilesSource, fileBatches, type SelectableFile } from './plan/files.js';
import { checkGitSource, type GitQueueSource, gitJobs } from './plan/git.js';
import { jsonlRanges } from './plan/jsonl-ranges.js';
import { checkSqlSource, type SqlQueueSource, sqlJobs } from './plan/sql.js';
import { checkRunId, newRunId } from './run-id.js';
import { type RunSourceDescription, RunStore } from './run-store.js';
import { sleep } from './sleep.js';

export type { DocumentsSource, FilesSource, GitQueueSource, SelectableFile, SqlQueueSource };

/** A JSONL file of documents (or ingestion requests) that every worker can read. */
export interface JsonlSource {
  kind: 'jsonl';
  /** The file (read by the producer here, and by each worker at the same path under its root). */
  file: string;
  /**
   * The folder workers mount: jobs name the file relative to it. Without it, jobs carry the
   * file's absolute path, which every worker must see.
   */
  root?: string | undefined;
  /** How documents are named in results (`<name>:<line>`). Default: `file` as given. */
  name?: string | undefined;
}

export type QueueSource =
  | FilesSource
  | JsonlSource
  | DocumentsSource
  | SqlQueueSource
  | GitQueueSource;

export interface EnqueueOptions extends QueueTarget {
  /** The run's id (default: a new one such as `r20250102T030405-1a2b3c`). */
  runId?: string | undefined;
  /**
   * Documents per job. Default 10 when the run has files (extraction takes CPU), 50 otherwise.
   * The queue's limits hold per request whatever a job holds.
   */
  batchSize?: number | undefined;
  /** Pair the documents are attached to (JSONL requests and items may name their own). */
  ccPairId?: number | null | undefined;
  /** The `source` of file documents, and of JSONL documents without one. */
  source?: string | undefined;
  /** Put before every document id. */
  idPrefix?: string | undefined;
  /** Largest serialised in-memory document a job may carry (default 1 MiB). */
  maxDocumentBytes?: number | undefined;
  /** Wait while the queue has this many jobs waiting (default: no wait). */
  maxWaitingJobs?: number | undefined;
  /** Attempts of a job that fails as a whole (a worker error, not a document's failure). Default 5. */
  attempts?: number | undefined;
  /**
   * Workers record each stored document's content hash and fingerprint, for the producer's
   * journal to take (`takeAcknowledgements`): how a sync through the queue learns what is stored.
   */
  acknowledgements?: boolean | undefined;
  /** Called after each bulk add with the totals so far. */
  onProgress?: ((progress: { documents: number; jobs: number }) => void) | undefined;
  /** Stops enqueueing; jobs already added stay (the run is marked `interrupted`). */
  signal?: AbortSignal | undefined;
}

export interface EnqueueResult {
  runId: string;
  queue: string;
  /** Documents enqueued (those that could not become documents included: they failed at once). */
  documents: number;
  jobs: number;
  /** Paths that could not become documents, recorded as failed with their reasons. */
  failed: number;
  /** Documents per job used. */
  batchSize: number;
  /** The queue's rate when the run was enqueued (requests per second), or null. */
  ratePerSec: number | null;
  /** True when the signal stopped it before the source ended. */
  interrupted: boolean;
  elapsedMs: number;
}

/** Jobs per bulk add, and documents: a chunk is one round trip and one batch in memory. */
const CHUNK_JOBS = 100;
const CHUNK_DOCUMENTS = 2_000;

/** What the planners give: a job's data less what the run adds. */
type Planned<T> = T extends JobData
  ? Omit<T, 'v' | 'run' | 'seq' | 'start' | 'ccPairId' | 'items' | 'acks'>
  : never;

/** A job to add, or a document that failed before any job (recorded in the run at once). */
type PlannedJob = { data: Planned<JobData> } | { failed: { ref: string; reason: string } };

function positiveInt(value: number | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new QueueUsageError(
      `${field} must be a whole number of at least 1 (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

function checkSource(source: QueueSource): void {
  if (source === null || typeof source !== 'object') {
    throw new QueueUsageError(
      'source must be { kind: "files", root }, { kind: "jsonl", file }, { kind: "documents", documents }, { kind: "sql", source, connection } or { kind: "git", source, root }',
    );
  }
  if (source.kind === 'jsonl') {
    if (typeof source.file !== 'string' || source.file === '') {
      throw new QueueUsageError('source.file must name the JSONL file to enqueue');
    }
    let isFile = false;
    try {
      isFile = statSync(source.file).isFile();
    } catch {
      throw new QueueUsageError(`source.file ${source.file}: no such file`);
    }
    if (!isFile) throw new QueueUsageError(`source.file ${source.file}: not a file`);
  } else if (source.kind === 'files') checkRoot(source.root, 'source.root');
  else if (source.kind === 'sql') checkSqlSource(source);
  else if (source.kind === 'git') checkGitSource(source);
  else if (source.kind === 'documents') {
    const docs = source.documents as unknown as Record<symbol, unknown> | null;
    if (
      docs === null ||
      typeof docs !== 'object' ||
      (typeof docs[Symbol.iterator] !== 'function' &&
        typeof docs[Symbol.asyncIterator] !== 'function')
    ) {
      throw new QueueUsageError('source.documents must be an Iterable or AsyncIterable');
    }
  } else {
    throw new QueueUsageError(
      `source.kind must be "files", "jsonl", "documents", "sql" or "git" (got ${JSON.stringify((source as { kind?: unknown }).kind)})`,
    );
  }
}

/** How the JSONL file is named in jobs: relative to root when given, else absolute. */
function jsonlFileRef(source: JsonlSource): string {
  const abs = resolve(source.file);
  if (source.root === undefined) return abs;
  const root = checkRoot(source.root, 'source.root');
  const rel = relative(root, abs);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) {
    throw new QueueUsageError(`source.file ${abs} is outside source.root ${root}`);
  }
  return rel.split(sep).join('/');
}

async function* plannedJobs(
  source: QueueSource,
  batchSize: number,
  maxDocumentBytes: number,
  items: JobItemOptions,
): AsyncGenerator<PlannedJob> {
  if (source.kind === 'files') {
    for await (const planned of fileBatches(source, batchSize, items)) {
      if (planned.kind === 'failed') {
        yield { failed: { ref: planned.ref, reason: planned.reason } };
        continue;
      }
      const { dir, keyPrefix, paths } = planned;
      yield {
        data: {
          kind: 'files',
          count: paths.length,
          ...(dir === '' ? {} : { dir }),
          ...(keyPrefix === '' ? {} : { keyPrefix }),
          paths,
        },
      };
    }
  } else if (source.kind === 'sql') {
    for await (const data of sqlJobs(source, batchSize)) yield { data };
  } else if (source.kind === 'git') {
    for await (const data of gitJobs(source, batchSize)) yield { data };
  } else if (source.kind === 'jsonl') {
    const file = jsonlFileRef(source);
    const name = source.name ?? source.file;
    for await (const range of jsonlRanges(source.file, batchSize)) {
      yield { data: { kind: 'jsonl', file, name, ...range } };
    }
  } else {
    for await (const documents of documentBatches(source, batchSize, maxDocumentBytes)) {
      yield { data: { kind: 'documents', count: documents.length, documents } };
    }
  }
}

function describeSource(source: QueueSource): RunSourceDescription {
  if (source.kind === 'files') {
    return {
      kind: 'files',
      root: resolve(source.root),
      ...(source.paths ? { paths: [...source.paths].slice(0, 20) } : {}),
    };
  }
  if (source.kind === 'jsonl') {
    return {
      kind: 'jsonl',
      file: resolve(source.file),
      ...(source.root ? { root: resolve(source.root) } : {}),
    };
  }
  if (source.kind === 'sql') {
    return { kind: 'sql', database: source.source.connection, connection: source.connection };
  }
  if (source.kind === 'git') {
    return { kind: 'git', repository: source.source.repository, root: resolve(source.root) };
  }
  return { kind: 'documents' };
}

/** The job to add for a planned one, in the run's order. */
interface ChunkJob {
  name: string;
  data: JobData;
  opts: ReturnType<typeof jobOptions> & { jobId: string };
}

/**
 * Enqueues a source (or several, in order) as one run of jobs; resolves once every job is in
 * Redis.
 */
export async function enqueue(
  sources: QueueSource | readonly QueueSource[],
  options: EnqueueOptions,
): Promise<EnqueueResult> {
  const started = Date.now();
  const { queue: queueName, prefix } = queueNames(options);
  checkConnection(options.connection);
  const all: readonly QueueSource[] = Array.isArray(sources) ? sources : [sources as QueueSource];
  if (all.length === 0) throw new QueueUsageError('source: give at least one source to enqueue');
  for (const source of all) checkSource(source);
  const runId = options.runId === undefined ? newRunId() : checkRunId(options.runId);
  const askedBatch = positiveInt(options.batchSize, 'batchSize');
  const maxWaiting = positiveInt(options.maxWaitingJobs, 'maxWaitingJobs');
  const attempts = positiveInt(options.attempts, 'attempts') ?? DEFAULT_JOB_ATTEMPTS;
  const maxDocumentBytes =
    positiveInt(options.maxDocumentBytes, 'maxDocumentBytes') ?? DEFAULT_MAX_DOCUMENT_BYTES;

  const redis = createRedis(options.connection, `kis-enqueue:${runId}`);
  redis.on('error', () => undefined); // reported by the commands that fail
  const queue = new Queue(queueName, { connection: redis, prefix });
  queue.on('error', () => undefined);
  const store = new RunStore(redis, prefix, queueName);
  try {
    const limits = await readLimits({ queue, redis, store }).catch((error: unknown) => {
      throw new Error(
        `cannot reach Redis at ${describeConnection(options.connection)}: ${(error as Error).message}`,
      );
    });
    const hasFiles = all.some((s) => s.kind === 'files' || s.kind === 'git');
    const batchSize = askedBatch ?? (hasFiles ? 10 : 50);
    const acks = options.acknowledgements === true;
    await store.createRun({
      id: runId,
      createdAt: started,
      sources: all.map(describeSource),
      batchSize,
      ...(options.ccPairId === undefined ? {} : { ccPairId: options.ccPairId }),
      ...(acks ? { acks } : {}),
    });
    const items: JobItemOptions = {};
    if (options.source !== undefined) items.source = options.source;
    if (options.idPrefix !== undefined) items.idPrefix = options.idPrefix;
    const common = {
      v: JOB_VERSION,
      run: runId,
      ...(options.ccPairId === undefined ? {} : { ccPairId: options.ccPairId }),
      ...(Object.keys(items).length > 0 ? { items } : {}),
      ...(acks ? { acks: true as const } : {}),
    };
    const opts = jobOptions(attempts);

    let seq = 0;
    let ordinal = 0;
    let failed = 0;
    let chunk: ChunkJob[] = [];
    let chunkFailures: { ordinal: number; ref: string; reason: string }[] = [];
    let chunkDocs = 0;
    const flush = async () => {
      if (chunk.length === 0 && chunkFailures.length === 0) return;
      if (maxWaiting !== undefined) {
        while ((await queue.getWaitingCount()) >= maxWaiting && !options.signal?.aborted) {
          await sleep(500, options.signal);
        }
      }
      if (chunk.length > 0) await queue.addBulk(chunk);
      await store.addPlanned(runId, chunkDocs, chunk.length);
      for (const f of chunkFailures) {
        await store.record(runId, f.ordinal, {
          status: 'failed',
          failure: {
            ordinal: f.ordinal,
            ref: f.ref,
            documentId: null,
            reason: f.reason,
            httpStatus: undefined,
            attempts: 0,
            at: new Date().toISOString(),
            jobId: '',
          },
        });
      }
      failed += chunkFailures.length;
      chunk = [];
      chunkFailures = [];
      chunkDocs = 0;
      options.onProgress?.({ documents: ordinal, jobs: seq });
    };
    let interrupted = false;
    try {
      outer: for (const source of all) {
        for await (const planned of plannedJobs(source, batchSize, maxDocumentBytes, items)) {
          if (options.signal?.aborted) {
            interrupted = true;
            break outer;
          }
          if ('failed' in planned) {
            chunkFailures.push({ ordinal, ...planned.failed });
            ordinal++;
            chunkDocs++;
          } else {
            const data = { ...common, ...planned.data, seq, start: ordinal } as JobData;
            chunk.push({ name: runId, data, opts: { ...opts, jobId: jobIdOf(runId, seq) } });
            seq++;
            ordinal += data.count;
            chunkDocs += data.count;
          }
          if (chunk.length >= CHUNK_JOBS || chunkDocs >= CHUNK_DOCUMENTS) await flush();
        }
      }
      if (!interrupted) await flush();
    } catch (error) {
      // the jobs added so far stay, and run; the run says it is incomplete
      await store.setState(runId, 'interrupted').catch(() => undefined);
      throw error;
    }
    await store.setState(runId, interrupted ? 'interrupted' : 'enqueued');
    return {
      runId,
      queue: queueName,
      documents: interrupted ? ordinal - chunkDocs : ordinal,
      jobs: interrupted ? seq - chunk.length : seq,
      failed,
      batchSize,
      ratePerSec: limits.ratePerSec,
      interrupted,
      elapsedMs: Date.now() - started,
    };
  } finally {
    await queue.close().catch(() => undefined);
    redis.disconnect();
  }
}
