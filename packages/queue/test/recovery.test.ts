import { join } from 'node:path';
import { type Emulator, startEmulator } from '@kis/emulator';
import { startRedis, type TestRedis } from '@kis/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, type QueueWorker, queueStatus, startWorker } from '../src/index.js';
import { KEY, tempDir, until, writeJsonl } from './helpers.js';
import { spawnWorker, type WorkerProcess } from './worker-process.js';

const DOCS = 300;

describe('workers that die, stop, or lose Redis', () => {
  let redis: TestRedis;
  let emulator: Emulator;
  const corpus = tempDir('recovery');
  const file = join(corpus.dir, 'export.jsonl');
  const children: WorkerProcess[] = [];
  const workers: QueueWorker[] = [];
  let queueNo = 0;

  beforeAll(async () => {
    redis = await startRedis();
    writeJsonl(file, DOCS, 'doc');
  });
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.close();
    for (const c of children.splice(0)) {
      if (c.child.exitCode === null && c.child.signalCode === null) {
        c.child.kill('SIGKILL');
        await c.exited;
      }
    }
    await emulator?.close();
  });
  afterAll(async () => {
    await redis?.close();
    corpus.remove();
  });

  /** A new queue and emulator for one scenario. */
  async function scenario(latencyMs: number) {
    emulator = await startEmulator({ adminKey: KEY, latencyMs });
    const target = { connection: redis.url, queue: `recovery-${++queueNo}` };
    const run = await enqueue({ kind: 'jsonl', file }, { ...target, batchSize: 10 });
    const workerOptions = {
      ...target,
      lockDurationMs: 2_000,
      stalledIntervalMs: 1_000,
    };
    const finished = () =>
      until(
        async () => (await queueStatus({ ...target, runId: run.runId })).runs[0]?.finished === true,
        'the run to finish',
        60_000,
      );
    return { target, run, workerOptions, finished };
  }

  it('SIGKILL of a worker: its jobs go to another worker, nothing lost, re-sent at most its in-flight', async () => {
    const { target, run, workerOptions, finished } = await scenario(40);
    const killed = await spawnWorker(
      { ...workerOptions, baseUrl: emulator.baseUrl, concurrency: 6 },
      KEY,
    );
    children.push(killed);
    await until(() => emulator.stats().ingestion.acknowledged >= 60, 'some documents stored');
    workers.push(
      await startWorker({
        ...workerOptions,
        kis: { baseUrl: emulator.baseUrl, apiKey: KEY },
        concurrency: 4,
      }),
    );
    await until(() => emulator.stats().ingestion.acknowledged >= 100, 'more documents stored');
    killed.child.kill('SIGKILL');
    await killed.exited;
    await finished();

    const stats = emulator.stats();
    const stored = new Set(emulator.state.documents({ limit: 100_000 }).map((d) => d.id));
    expect(stored.size).toBe(DOCS);
    // the killed worker had at most 6 documents in flight (one per active job)
    expect(stats.ingestion.requests - DOCS).toBeLessThanOrEqual(6);
    expect(stats.ingestion.resent_after_ack).toBeLessThanOrEqual(6);
    const status = (await queueStatus({ ...target, runId: run.runId })).runs[0];
    expect(status?.documents).toMatchObject({ stored: DOCS, failed: 0, pending: 0 });
    expect(status?.documents.duplicates).toBeLessThanOrEqual(6);
  });

  it('SIGTERM: the worker finishes what is on the wire, returns its jobs and exits 0', async () => {
    const { target, run, workerOptions, finished } = await scenario(40);
    const stopped = await spawnWorker(
      { ...workerOptions, baseUrl: emulator.baseUrl, concurrency: 6 },
      KEY,
    );
    children.push(stopped);
    await until(() => emulator.stats().ingestion.acknowledged >= 60, 'some documents stored');
    stopped.child.kill('SIGTERM');
    expect(await stopped.exited).toBe(0);
    const summary = JSON.parse(stopped.output().trim().split('\n').at(-1) as string).summary;
    expect(summary.jobsReturned).toBeGreaterThan(0);
    expect(summary.activeJobs).toBe(0);

    workers.push(
      await startWorker({ ...workerOptions, kis: { baseUrl: emulator.baseUrl, apiKey: KEY } }),
    );
    await finished();
    const stats = emulator.stats();
    // every document sent exactly once: nothing on the wire was cut, nothing recorded was re-sent
    expect(stats.ingestion.requests).toBe(DOCS);
    expect(stats.ingestion.resent_after_ack).toBe(0);
    const status = (await queueStatus({ ...target, runId: run.runId })).runs[0];
    expect(status?.documents).toMatchObject({ stored: DOCS, failed: 0, duplicates: 0 });
  });

  it('Redis stopped and started again mid-run: the run resumes by itself, nothing lost', async () => {
    const { target, run, workerOptions, finished } = await scenario(20);
    const kis = { baseUrl: emulator.baseUrl, apiKey: KEY };
    const quiet = { error() {}, warn() {}, info() {}, debug() {} };
    for (const name of ['a', 'b']) {
      workers.push(
        await startWorker({ ...workerOptions, kis, concurrency: 4, name, logger: quiet }),
      );
    }
    await until(() => emulator.stats().ingestion.acknowledged >= 80, 'some documents stored');
    await redis.stop();
    const during = emulator.stats().ingestion.acknowledged;
    await new Promise((r) => setTimeout(r, 1_500));
    // nothing can be recorded without Redis, so no job sends past its current document
    expect(emulator.stats().ingestion.acknowledged - during).toBeLessThanOrEqual(8);
    await redis.start();
    await finished();

    const stats = emulator.stats();
    expect(new Set(emulator.state.documents({ limit: 100_000 }).map((d) => d.id)).size).toBe(DOCS);
    expect(stats.ingestion.requests - DOCS).toBeLessThanOrEqual(8);
    const status = (await queueStatus({ ...target, runId: run.runId })).runs[0];
    expect(status?.documents).toMatchObject({ stored: DOCS, failed: 0, pending: 0 });
  });
});
