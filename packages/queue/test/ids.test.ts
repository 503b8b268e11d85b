/**
 * Files enqueued keep the ids, refs and `relative_path` a local run gives them (folderSource's
 * default, or its baseDir), whatever the root and whatever name the workers mount it under; a
 * path that cannot become a document fails at once; a sync's acknowledgements reach its journal
 * with the hash and fingerprint a local run records.
 */
import { cpSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  createKisClient,
  type IngestJournal,
  type JournalEntry,
  normalizeDocumentId,
} from '@kis/client';
import { type Emulator, startEmulator } from '@kis/emulator';
import { folderSource } from '@kis/node';
import { startRedis, type TestRedis } from '@kis/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  enqueue,
  listFailed,
  type QueueWorker,
  queueStatus,
  startWorker,
  takeAcknowledgements,
} from '../src/index.js';
import { placeFile } from '../src/plan/files.js';
import { KEY, tempDir, until } from './helpers.js';

const quiet = { error() {}, warn() {}, info() {}, debug() {} };

describe('placeFile', () => {
  it('names a file under the folder its key starts from, or prefixes the root name', () => {
    expect(placeFile('/mnt', '/mnt/corpus/handbook/a.md', 'handbook/a.md')).toEqual({
      dir: 'corpus',
      keyPrefix: '',
      path: 'handbook/a.md',
    });
    expect(placeFile('/mnt/corpus', '/mnt/corpus/handbook/a.md', 'corpus/handbook/a.md')).toEqual({
      dir: '',
      keyPrefix: 'corpus/',
      path: 'handbook/a.md',
    });
    expect(placeFile('/mnt/corpus', '/mnt/corpus/handbook/a.md', 'a.md')).toEqual({
      dir: 'handbook',
      keyPrefix: '',
      path: 'a.md',
    });
    // a key outside the base directory is absolute: workers are given it as a prefix
    expect(placeFile('/mnt/corpus', '/mnt/corpus/x/a.md', '/mnt/corpus/x/a.md')).toEqual({
      dir: '',
      keyPrefix: '/mnt/corpus/',
      path: 'x/a.md',
    });
    expect(() => placeFile('/mnt/corpus', '/srv/a.md', 'a.md')).toThrow(
      '/srv/a.md is outside root /mnt/corpus: workers read files by their path under root',
    );
  });
});

/** A journal in memory, as a sync keeps one. */
class MemoryJournal implements IngestJournal {
  readonly entries = new Map<string, JournalEntry>();
  has(id: string, hash: string) {
    return this.entries.get(id)?.hash === hash;
  }
  record(entry: JournalEntry) {
    this.entries.set(entry.id, entry);
  }
}

describe('files through the queue keep the ids of a local run', () => {
  let redis: TestRedis;
  let emulator: Emulator;
  const tmp = tempDir('ids');
  // the producer's mount, and the same files mounted elsewhere under other names on the workers
  const mnt = join(tmp.dir, 'mnt');
  const corpus = join(mnt, 'corpus');
  const workerMnt = join(tmp.dir, 'worker-mnt');
  const workerCorpus = join(tmp.dir, 'worker-data');
  const workers: QueueWorker[] = [];
  let queueNo = 0;

  beforeAll(async () => {
    for (const [path, text] of Object.entries({
      'handbook/a.md': '# A\n\nAlpha.',
      'handbook/sub/b.txt': 'Bravo',
      'top.md': '# Top',
      'tool.exe': 'MZ',
    })) {
      mkdirSync(join(corpus, path, '..'), { recursive: true });
      writeFileSync(join(corpus, path), text);
      // whole seconds: copies keep the same time, so the same fingerprint, on every mount
      utimesSync(join(corpus, path), 1_700_000_000, 1_700_000_000);
    }
    cpSync(mnt, workerMnt, { recursive: true, preserveTimestamps: true });
    cpSync(corpus, workerCorpus, { recursive: true, preserveTimestamps: true });
    redis = await startRedis();
    emulator = await startEmulator({ adminKey: KEY });
  });
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.close();
    emulator.state.reset();
  });
  afterAll(async () => {
    await emulator?.close();
    await redis?.close();
    tmp.remove();
  });

  /** Enqueues, runs one worker on `workerRoot` to the end; the stored documents by id. */
  async function throughQueue(
    source: { root: string; paths?: string[]; baseDir?: string },
    workerRoot: string,
    extra: { acknowledgements?: boolean } = {},
  ) {
    const target = { connection: redis.url, queue: `ids-${queueNo++}` };
    const run = await enqueue({ kind: 'files', ...source }, { ...target, batchSize: 2, ...extra });
    workers.push(
      await startWorker({
        ...target,
        kis: { baseUrl: emulator.baseUrl, apiKey: KEY, logLevel: 'off' },
        root: workerRoot,
        logger: quiet,
      }),
    );
    await until(
      async () => (await queueStatus({ ...target, runId: run.runId })).runs[0]?.finished === true,
      'the run to finish',
    );
    const stored = new Map(
      emulator.state.documents({ limit: 100 }).map((d) => [d.id, emulator.state.document(d.id)]),
    );
    return { run, target, stored };
  }

  /** What a local run gives: id → relative_path, from folderSource itself. */
  function localIds(paths: string[], baseDir?: string): Map<string, string> {
    const ids = new Map<string, string>();
    for (const item of folderSource(paths, { baseDir, exclude: ['*.exe'] })) {
      ids.set(normalizeDocumentId(item.id as string), item.ref);
    }
    return ids;
  }

  const relativePaths = (stored: Map<string, { metadata: Record<string, unknown> } | undefined>) =>
    new Map([...stored].map(([id, d]) => [id, d?.metadata.relative_path]));

  it('the root itself, read by workers that mount it under another name', async () => {
    const { stored } = await throughQueue(
      { root: corpus, paths: ['handbook', 'top.md'] },
      workerCorpus,
    );
    const local = localIds([join(corpus, 'handbook'), join(corpus, 'top.md')]);
    expect([...local.keys()].sort()).toEqual([
      'handbook%2Fa.md',
      'handbook%2Fsub%2Fb.txt',
      'top.md',
    ]);
    expect(relativePaths(stored)).toEqual(local);
  });

  it('the whole root as the folder: its files are <root name>/<path inside>', async () => {
    const { run, target, stored } = await throughQueue({ root: corpus }, workerCorpus);
    const local = localIds([corpus]);
    expect([...local.keys()]).toContain('corpus%2Fhandbook%2Fsub%2Fb.txt');
    expect(relativePaths(stored)).toEqual(local);
    // a file named on its own is read; one found in a folder of an unsupported type is left out
    expect(run.failed).toBe(0);
    expect((await listFailed(target)).length).toBe(0);
  });

  it('a folder under a wider root, and ids relative to a base directory', async () => {
    const first = await throughQueue({ root: mnt, paths: ['corpus/handbook'] }, workerMnt);
    expect(relativePaths(first.stored)).toEqual(localIds([join(corpus, 'handbook')]));
    emulator.state.reset();
    const second = await throughQueue(
      { root: corpus, paths: ['handbook'], baseDir: mnt },
      workerCorpus,
    );
    const local = localIds([join(corpus, 'handbook')], mnt);
    expect([...local.keys()]).toContain('corpus%2Fhandbook%2Fa.md');
    expect(relativePaths(second.stored)).toEqual(local);
  });

  it('a path that cannot become a document fails at enqueue, with its reason', async () => {
    const { run, target, stored } = await throughQueue(
      { root: corpus, paths: ['top.md', 'tool.exe'] },
      workerCorpus,
    );
    expect(run).toMatchObject({ documents: 2, failed: 1, jobs: 1 });
    expect([...stored.keys()]).toEqual(['top.md']);
    const [failure] = await listFailed(target);
    expect(failure).toMatchObject({ ref: 'tool.exe', attempts: 0, documentId: null });
    expect(failure?.reason).toMatch(/^unsupported file type \.exe; expected /);
    const status = (await queueStatus(target)).runs[0];
    expect(status).toMatchObject({ finished: true, documents: { stored: 1, failed: 1 } });
  });

  it('acknowledgements reach the journal as a local run records them, once', async () => {
    const { run, target } = await throughQueue(
      { root: corpus, paths: ['handbook'] },
      workerCorpus,
      {
        acknowledgements: true,
      },
    );
    const taken: JournalEntry[] = [];
    const result = await takeAcknowledgements({
      ...target,
      onEntries: (entries) => void taken.push(...entries),
    });
    expect(result).toEqual({ entries: 2, runs: [run.runId], unfinished: [] });
    expect(await takeAcknowledgements({ ...target, onEntries: () => undefined })).toMatchObject({
      entries: 0,
    });

    // the same files sent by a local run, with a journal
    emulator.state.reset();
    const journal = new MemoryJournal();
    const kis = createKisClient({ baseUrl: emulator.baseUrl, apiKey: KEY, logLevel: 'off' });
    await kis.ingestMany(folderSource([resolve(corpus, 'handbook')]), { journal }).done();
    const local = [...journal.entries.values()].sort((a, b) => a.id.localeCompare(b.id));
    const queued = taken.sort((a, b) => a.id.localeCompare(b.id));
    expect(queued.map((e) => [e.id, e.hash, e.fingerprint, e.status])).toEqual(
      local.map((e) => [e.id, e.hash, e.fingerprint, 'created']),
    );
  });
});
