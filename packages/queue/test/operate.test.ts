import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '@kis/emulator';
import { describe, expect, it } from 'vitest';
import {
  cleanRun,
  enqueue,
  listFailed,
  QueueUsageError,
  queueStatus,
  retryFailed,
  serveDashboard,
  startWorker,
} from '../src/index.js';
import { KEY, queueSetup, tempDir, until, writeFiles } from './helpers.js';

const quiet = { error() {}, warn() {}, info() {}, debug() {} };

describe('failed documents, retry, clean, overload and the dashboard', () => {
  const q = queueSetup('operate');
  const { corpus, workers } = q;

  const finished = (target: { connection: string; queue: string }, runId: string) =>
    until(
      async () => (await queueStatus({ ...target, runId })).runs[0]?.finished === true,
      'the run to finish',
    );

  it('lists failed documents with reasons, retries them, and cleans the run', async () => {
    q.emulator = await startEmulator({ adminKey: KEY });
    const target = { connection: q.redis.url, queue: 'operate' };
    writeFiles(corpus.dir, 5, 'ok');
    writeFileSync(join(corpus.dir, 'ok', 'broken.json'), '{"a": ');
    writeFileSync(join(corpus.dir, 'ok', 'gone.md'), '# Gone');
    const run = await enqueue(
      { kind: 'files', root: corpus.dir, paths: ['ok'] },
      { ...target, batchSize: 3 },
    );
    expect(run.documents).toBe(7);
    rmSync(join(corpus.dir, 'ok', 'gone.md'));

    const kis = { baseUrl: q.emulator.baseUrl, apiKey: KEY };
    workers.push(await startWorker({ ...target, kis, root: corpus.dir, logger: quiet }));
    await finished(target, run.runId);

    let status = (await queueStatus({ ...target, runId: run.runId })).runs[0];
    expect(status?.documents).toMatchObject({ stored: 5, failed: 2, pending: 0 });
    expect(status?.jobs.failed).toBe(2);
    const failed = await listFailed({ ...target, runId: run.runId });
    expect(failed.map((f) => f.ref)).toEqual(['ok/broken.json', 'ok/gone.md']);
    expect(failed[0]?.reason).toMatch(/JSON/i);
    expect(failed[1]?.reason).toBe(
      `cannot read ok/gone.md under root ${corpus.dir}: no such file or directory`,
    );
    expect(status?.failures).toHaveLength(2);

    writeFileSync(join(corpus.dir, 'ok', 'broken.json'), '{"a": 1}');
    writeFileSync(join(corpus.dir, 'ok', 'gone.md'), '# Back');
    const retried = await retryFailed({ ...target, runId: run.runId });
    expect(retried).toEqual({ jobs: 2, documents: 2 });
    await until(async () => {
      const r = (await queueStatus({ ...target, runId: run.runId })).runs[0];
      return r?.documents.stored === 7;
    }, 'the retried documents to be stored');
    status = (await queueStatus({ ...target, runId: run.runId })).runs[0];
    expect(status?.documents).toMatchObject({ stored: 7, failed: 0, duplicates: 0 });
    expect(status?.jobs).toMatchObject({ total: 3, completed: 3, failed: 0 });
    // 5 stored, then the 2 retried (the failures never reached the server): nothing sent twice
    expect(q.emulator.stats().ingestion.requests).toBe(7);

    const cleaned = await cleanRun({ ...target, runId: run.runId });
    expect(cleaned).toMatchObject({ runs: [run.runId], jobs: 3, unfinished: [] });
    const after = await queueStatus(target);
    expect(after.runs).toEqual([]);
    expect(after.jobs.completed + after.jobs.failed + after.jobs.waiting).toBe(0);
  });

  it('fails an invalid in-memory document alone and refuses oversize or loader items', async () => {
    q.emulator = await startEmulator({ adminKey: KEY });
    const target = { connection: q.redis.url, queue: 'payload' };
    const good = (n: number) => ({
      id: `mem-${n}`,
      semantic_identifier: `Memo ${n}`,
      sections: [{ text: `Memo ${n}` }],
      source: 'file' as const,
      metadata: {},
    });
    const bad = { document: { semantic_identifier: 'bad', sections: 'nope' }, ref: 'the-bad-one' };
    const run = await enqueue(
      { kind: 'documents', documents: [good(1), bad as never, good(2)] },
      target,
    );
    workers.push(
      await startWorker({
        ...target,
        kis: { baseUrl: q.emulator.baseUrl, apiKey: KEY },
        logger: quiet,
      }),
    );
    await finished(target, run.runId);
    const [failure] = await listFailed(target);
    expect(failure).toMatchObject({ runId: run.runId, ordinal: 1, ref: 'the-bad-one' });
    expect(failure?.reason).toMatch(/^Invalid ingestion request \(the-bad-one\): document\./);

    const big = { ...good(3), sections: [{ text: 'x'.repeat(2_000) }] };
    await expect(
      enqueue(
        { kind: 'documents', documents: [good(4), big] },
        { ...target, maxDocumentBytes: 1_000 },
      ),
    ).rejects.toThrow(
      /^documents\[1\] is \d+ bytes serialised, over the 1000-byte limit of a document carried in a queue job/,
    );
    await expect(
      enqueue({ kind: 'documents', documents: [{ load: () => good(5), ref: 'lazy' }] }, target),
    ).rejects.toThrow(
      'documents[0] (lazy) has a load function, which cannot travel in a queue job',
    );
    await expect(
      enqueue({ kind: 'files', root: join(corpus.dir, 'nowhere') }, target),
    ).rejects.toThrow(QueueUsageError);
  });

  it('overload (most answers refused) pauses the whole queue; random faults do not', async () => {
    const target = { connection: q.redis.url, queue: 'overload' };
    const docs = Array.from({ length: 40 }, (_, n) => ({
      id: `o-${n}`,
      semantic_identifier: `O ${n}`,
      sections: [{ text: 'o' }],
      metadata: {},
    }));
    // a server that serves one request at a time and refuses the rest with 503
    q.emulator = await startEmulator({ adminKey: KEY, capacity: 1, queue: 0, latencyMs: 20 });
    // six jobs at once against one place: most answers are refusals, whatever the timing
    let run = await enqueue(
      { kind: 'documents', documents: docs.slice(0, 30) },
      { ...target, batchSize: 3 },
    );
    const kis = { baseUrl: q.emulator.baseUrl, apiKey: KEY };
    let worker = await startWorker({ ...target, kis, concurrency: 6, logger: quiet });
    workers.push(worker);
    await until(async () => (await queueStatus(target)).rateLimitedForMs > 0, 'a queue-wide pause');
    await finished(target, run.runId);
    expect(worker.progress().overloadPauses).toBeGreaterThan(0);
    expect(q.emulator.stats().capacity?.refused_queue_full).toBeGreaterThan(0);
    await worker.close();
    await q.emulator.close();

    q.emulator = await startEmulator({ adminKey: KEY, faults: '503=0.1', seed: 7 });
    run = await enqueue({ kind: 'documents', documents: docs }, { ...target, batchSize: 5 });
    worker = await startWorker({
      ...target,
      kis: { ...kis, baseUrl: q.emulator.baseUrl },
      logger: quiet,
    });
    workers.push(worker);
    await finished(target, run.runId);
    expect(worker.progress().overloadPauses).toBe(0);
    expect(q.emulator.stats().by_status['503']).toBeGreaterThan(0);
  });

  it('a worker whose key the server refuses does not start, and says why in the queue', async () => {
    q.emulator = await startEmulator({ adminKey: KEY });
    const target = { connection: q.redis.url, queue: 'refused' };
    const doc = { id: 'r1', semantic_identifier: 'R', sections: [{ text: 'r' }], metadata: {} };
    const run = await enqueue({ kind: 'documents', documents: [doc] }, target);
    await expect(
      startWorker({
        ...target,
        kis: { baseUrl: q.emulator.baseUrl, apiKey: 'not-the-key-0123456789', logLevel: 'off' },
        logger: quiet,
        name: 'refused-worker',
      }),
    ).rejects.toThrow(/401|key/i);
    const status = await queueStatus({ ...target, runId: run.runId });
    expect(status.workers).toBe(0);
    expect(status.workerStops[0]).toMatchObject({ worker: 'refused-worker' });
    expect(status.workerStops[0]?.reason).not.toContain('not-the-key');
    // nothing was taken: the job waits for a worker the server accepts
    expect(status.runs[0]?.documents).toMatchObject({ stored: 0, failed: 0, pending: 1 });
    expect(status.runs[0]?.jobs).toMatchObject({ waiting: 1, failed: 0 });
    expect(q.emulator.stats().ingestion.requests).toBe(0);
    workers.push(
      await startWorker({
        ...target,
        kis: { baseUrl: q.emulator.baseUrl, apiKey: KEY, logLevel: 'off' },
        logger: quiet,
      }),
    );
    await finished(target, run.runId);
    expect(q.emulator.state.document('r1')).toBeDefined();
  });

  it('a worker whose root holds none of the queued files does not start', async () => {
    q.emulator = await startEmulator({ adminKey: KEY });
    const target = { connection: q.redis.url, queue: 'wrong-root' };
    writeFiles(corpus.dir, 3, 'manual');
    const run = await enqueue({ kind: 'files', root: corpus.dir, paths: ['manual'] }, target);
    const elsewhere = tempDir('elsewhere');
    try {
      await expect(
        startWorker({
          ...target,
          kis: { baseUrl: q.emulator.baseUrl, apiKey: KEY, logLevel: 'off' },
          root: elsewhere.dir,
          logger: quiet,
        }),
      ).rejects.toThrow(
        `root ${elsewhere.dir} holds none of the 3 file(s) job ${run.runId}.0 names (such as manual/00/note-0.md) nor their folders: start the worker with --root set to the folder the producer gave as --root`,
      );
      workers.push(
        await startWorker({
          ...target,
          kis: { baseUrl: q.emulator.baseUrl, apiKey: KEY, logLevel: 'off' },
          root: corpus.dir,
          logger: quiet,
        }),
      );
      await finished(target, run.runId);
    } finally {
      elsewhere.remove();
    }
  });

  it('serves the dashboard on loopback only', async () => {
    const target = { connection: q.redis.url, queue: 'operate' };
    await expect(serveDashboard({ ...target, host: '0.0.0.0' })).rejects.toThrow(
      'host must be a loopback address',
    );
    const board = await serveDashboard(target);
    try {
      expect(board.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const page = await fetch(board.url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<html');
      const api = await fetch(`${board.url}api/queues`);
      expect(api.status).toBe(200);
      const body = (await api.json()) as { queues: { name: string }[] };
      expect(body.queues.map((q) => q.name)).toEqual(['operate']);
    } finally {
      await board.close();
    }
  });
});
