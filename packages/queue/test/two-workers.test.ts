import { join } from 'node:path';
import { normalizeDocumentId } from '@kis/client';
import { type Emulator, startEmulator } from '@kis/emulator';
import { startRedis, type TestRedis } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, queueStatus, startWorker } from '../src/index.js';
import { KEY, tempDir, until, writeFiles, writeJsonl } from './helpers.js';

describe('two workers on one queue', () => {
  let redis: TestRedis;
  let emulator: Emulator;
  const corpus = tempDir('two-workers');

  beforeAll(async () => {
    redis = await startRedis();
    emulator = await startEmulator({ adminKey: KEY, latencyMs: 5 });
  });
  afterAll(async () => {
    await emulator?.close();
    await redis?.close();
    corpus.remove();
  });

  it('stores every document of a folder and a JSONL file once', async () => {
    const paths = writeFiles(corpus.dir, 60);
    writeJsonl(join(corpus.dir, 'export.jsonl'), 150, 'line');
    const target = { connection: redis.url, queue: 'two' };
    const files = await enqueue(
      { kind: 'files', root: corpus.dir, paths: ['docs'] },
      {
        ...target,
        batchSize: 7,
      },
    );
    const lines = await enqueue(
      { kind: 'jsonl', file: join(corpus.dir, 'export.jsonl'), root: corpus.dir },
      { ...target, batchSize: 20 },
    );
    expect(files).toMatchObject({ documents: 60, jobs: 9, batchSize: 7 });
    expect(lines).toMatchObject({ documents: 150, jobs: 8 });

    const kis = { baseUrl: emulator.baseUrl, apiKey: KEY };
    const workers = await Promise.all([
      startWorker({ ...target, kis, root: corpus.dir, concurrency: 4, name: 'w1' }),
      startWorker({ ...target, kis, root: corpus.dir, concurrency: 4, name: 'w2' }),
    ]);
    await until(async () => {
      const status = await queueStatus(target);
      return status.runs.every((r) => r.finished);
    }, 'both runs to finish');
    const summaries = await Promise.all(workers.map((w) => w.close()));

    const stats = emulator.stats();
    expect(stats.ingestion.acknowledged).toBe(210);
    expect(stats.ingestion.requests).toBe(210);
    expect(stats.ingestion.resent_after_ack).toBe(0);
    // both workers took part
    for (const s of summaries) expect(s.created + s.updated).toBeGreaterThan(0);
    const ids = new Set(emulator.state.documents({ limit: 1000 }).map((d) => d.id));
    expect(ids.size).toBe(210);
    expect(ids).toContain(normalizeDocumentId(paths[0] as string));
    expect(ids).toContain('line-149');

    const status = await queueStatus(target);
    for (const run of status.runs) {
      expect(run.documents.failed).toBe(0);
      expect(run.documents.pending).toBe(0);
      expect(run.documents.duplicates).toBe(0);
      expect(run.jobs.completed).toBe(run.jobs.total);
    }
  });
});
