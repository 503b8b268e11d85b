/**
 * One job, processed on a worker: its documents sent one at a time through the worker's engine,
 * each result recorded in the run before the next is sent (so a job that runs again skips what
 * is stored), the job ending `completed` (all stored) or `failed` (some failed for good, with the
 * server's reasons). A job this worker cannot carry out goes back to the queue for another.
 */
import type { IngestResult } from '@kis/client';
import { runStopping } from '@kis/client';
import { type Job, UnrecoverableError, WaitingError } from 'bullmq';
import { type JobData, jobDataProblem } from '../job-data.js';
import type { DocumentFailure, RunStore } from '../run-store.js';
import type { AckCapture } from './ack-capture.js';
import type { QueueBackoff } from './backoff.js';
import type { WorkerEngine } from './engine.js';
import { jobItems, type WorkerRoot } from './job-items.js';
import type { WorkerDocumentEvent } from './options.js';
import { connectionMisfit, rootMisfit } from './root-fit.js';

/** A worker's counts of documents and jobs. */
export interface WorkerCounts {
  /** Jobs running now. */
  activeJobs: number;
  jobsCompleted: number;
  /** Jobs ended `failed` (some documents failed for good). */
  jobsFailed: number;
  /** Distinct jobs this worker put back in the queue (on close, or one it could not carry out). */
  jobsReturned: number;
  created: number;
  updated: number;
  failed: number;
  /** Documents skipped because their run already held them as stored. */
  skipped: number;
}

/** One line from any error, for records and logs. */
export const messageOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ').trim();

export interface JobProcessorParts {
  store: RunStore;
  engine: WorkerEngine;
  backoff: QueueBackoff;
  acks: AckCapture;
  root: WorkerRoot;
  /** SQL connection strings by the names jobs give. */
  connections: Readonly<Record<string, string>>;
  /** Aborted when the worker closes: jobs then go back to the queue. */
  closing: AbortSignal;
  /** Called when a job shows this worker's root does not hold what jobs name. */
  onRootMisfit: (reason: string) => void;
  /** Called when a job names an SQL connection this worker does not hold. */
  onConnectionMisfit: (reason: string) => void;
  onDocument?: ((event: WorkerDocumentEvent) => void) | undefined;
}

export class JobProcessor {
  readonly counts: WorkerCounts = {
    activeJobs: 0,
    jobsCompleted: 0,
    jobsFailed: 0,
    jobsReturned: 0,
    created: 0,
    updated: 0,
    failed: 0,
    skipped: 0,
  };
  /** Jobs this worker gave back: a job taken again and given back again counts once. */
  private readonly returned = new Set<string>();

  constructor(private readonly parts: JobProcessorParts) {}

  /** BullMQ's processor: the job's documents sent and recorded; its counts while it runs. */
  readonly process = async (job: Job, token?: string): Promise<unknown> => {
    this.counts.activeJobs++;
    try {
      return await this.run(job, token);
    } finally {
      this.counts.activeJobs--;
    }
  };

  private async run(job: Job, token: string | undefined): Promise<unknown> {
    const problem = jobDataProblem(job.data);
    if (problem !== undefined) throw new UnrecoverableError(problem);
    const data = job.data as JobData;
    const { store, engine, backoff, closing } = this.parts;
    if (closing.aborted || engine.fatal) return this.giveBack(job, token);
    const misfit = rootMisfit(data, this.parts.root);
    if (misfit !== undefined) {
      this.parts.onRootMisfit(misfit);
      return this.giveBack(job, token);
    }
    const missing = connectionMisfit(data, this.parts.connections);
    if (missing !== undefined) {
      this.parts.onConnectionMisfit(missing);
      return this.giveBack(job, token);
    }
    const stored = await store.storedAmong(data.run, data.start, data.count);
    const done = { created: 0, updated: 0, skipped: 0 };
    const failures: { ref: string; reason: string }[] = [];
    let first = true;
    for await (const { ordinal, item } of jobItems(data, this.parts)) {
      if (stored[ordinal - data.start]) {
        done.skipped++;
        this.counts.skipped++;
        continue;
      }
      let result: IngestResult;
      for (;;) {
        if (closing.aborted) return this.giveBack(job, token);
        // the job's first document passed the queue's overload pause when the job started
        if (!first) await backoff.wait(closing);
        if (closing.aborted) return this.giveBack(job, token);
        result = await engine.send(item);
        // refused for this worker's key or base URL, not for the document: another worker may
        // store it (this one stops)
        if (result.status === 'failed' && result.error && runStopping(result.error)) {
          return this.giveBack(job, token);
        }
        if (result.status !== 'aborted') break;
        if (closing.aborted || engine.fatal) return this.giveBack(job, token);
        // the engine run was replaced (no server yet): send it again through the new one
      }
      first = false;
      const outcome = await this.record(job, data, ordinal, result);
      if (outcome === 'stored') done[result.status as 'created' | 'updated']++;
      else failures.push({ ref: item.ref, reason: result.error?.message ?? result.status });
    }
    if (failures.length > 0) {
      const head = failures[0] as { ref: string; reason: string };
      throw new UnrecoverableError(
        `${failures.length} of ${data.count} documents failed (first: ${head.ref}: ${messageOf(head.reason)})`,
      );
    }
    await store.jobDone(data.run, data.seq);
    return done;
  }

  /** Puts a job back in the queue for another worker (its stored documents stay recorded). */
  private async giveBack(job: Job, token: string | undefined): Promise<never> {
    await job.moveToWait(token);
    const id = job.id ?? '';
    if (!this.returned.has(id)) {
      this.returned.add(id);
      this.counts.jobsReturned++;
    }
    throw new WaitingError();
  }

  /** Records one document's result in its run; whether it is stored. */
  private async record(
    job: Job,
    data: JobData,
    ordinal: number,
    result: IngestResult,
  ): Promise<'stored' | 'failed'> {
    const { store, acks } = this.parts;
    const jobId = job.id ?? '';
    const entry = acks.take(result.documentId);
    const stored = result.status === 'created' || result.status === 'updated';
    if (stored) {
      const ack =
        data.acks && entry && result.documentId !== null
          ? {
              documentId: result.documentId,
              entry: {
                hash: entry.hash,
                status: entry.status,
                ccPairId: entry.ccPairId,
                at: entry.at,
                ...(entry.fingerprint === undefined ? {} : { fingerprint: entry.fingerprint }),
                ...(entry.updatedAt === undefined ? {} : { updatedAt: entry.updatedAt }),
              },
            }
          : undefined;
      await store.record(data.run, ordinal, {
        status: result.status as 'created' | 'updated',
        ack,
      });
      this.counts[result.status as 'created' | 'updated']++;
    } else {
      const failure: DocumentFailure = {
        ordinal,
        ref: result.ref,
        documentId: result.documentId,
        reason: result.error ? messageOf(result.error) : `not stored (${result.status})`,
        httpStatus: result.error?.status,
        attempts: result.attempts,
        at: new Date().toISOString(),
        jobId,
      };
      await store.record(data.run, ordinal, { status: 'failed', failure });
      this.counts.failed++;
    }
    this.parts.onDocument?.({
      runId: data.run,
      jobId,
      ordinal,
      ref: result.ref,
      documentId: result.documentId,
      status: stored ? (result.status as 'created' | 'updated') : 'failed',
      attempts: result.attempts,
      ...(stored ? {} : { reason: result.error ? messageOf(result.error) : result.status }),
    });
    return stored ? 'stored' : 'failed';
  }
}
