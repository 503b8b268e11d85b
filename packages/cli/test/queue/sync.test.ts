// `kis sync --queue` end to end: the plan of a local sync, the creates and updates sent by a
// `kis worker`, the deletions done by the producer, and the workers' acknowledgements written to
// the journal, so the next sync sends only what changed and proves the rest unchanged.
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '@kis/emulator';
import { queueStatus } from '@kis/queue';
import { startRedis, type TestRedis, writeTree } from '@kis/test-support';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, emulator, envFor, jsonLines, kis } from '../helpers/cli.js';
import { type KisWorker, startKisWorker, until } from '../helpers/queue.js';

let redis: TestRedis;
let emu: Emulator;
let work: string;
let env: Record<string, string>;
let worker: KisWorker | undefined;

beforeAll(async () => {
  assertBuilt();
  redis = await startRedis();
  emu = await emulator();
  env = envFor(emu);
  work = await mkdtemp(join(tmpdir(), 'kis-queue-sync-'));
  await writeTree(join(work, 'kb'), {
    'a.md': '# A',
    'b.md': '# B',
    'sub/c.txt': 'C',
    'sub/d.txt': 'D',
  });
  worker = await startKisWorker(['--queue', redis.url, '--root', work], { env, cwd: work });
});
afterAll(async () => {
  if (worker) expect((await worker.stop()).code).toBe(0);
  await emu?.close();
  await redis?.close();
  await rm(work, { recursive: true, force: true });
});

/** A file connector's pair, made with `kis`. */
async function filePair(name = 'kb'): Promise<number> {
  const r = await kis(
    [
      '--json',
      'connector',
      'create',
      '--name',
      name,
      '--source',
      'file',
      '--config',
      '{"file_locations": []}',
    ],
    { env, cwd: work },
  );
  expect(r.code, r.stderr).toBe(0);
  return jsonLines(r.stdout)[0]?.cc_pair_id as number;
}

const pairIds = (pair: number) =>
  emu.state
    .documents({ limit: 100 })
    .filter((d) => d.cc_pair_ids.includes(pair))
    .map((d) => d.id)
    .sort();

/** `kis --json sync kb --queue … ARGS`: exit code, plan counts, summary. */
async function syncThroughQueue(pair: number, args: string[] = []) {
  const r = await kis(
    ['--json', 'sync', 'kb', '--cc-pair', String(pair), '--queue', redis.url, '--prune', ...args],
    { env, cwd: work },
  );
  const lines = jsonLines(r.stdout);
  return {
    code: r.code,
    stderr: r.stderr,
    plan: lines.find((l) => 'plan' in l && typeof l.plan === 'object')?.plan,
    summary: lines.find((l) => 'summary' in l)?.summary as Record<string, unknown> | undefined,
    deletions: lines.filter((l) => l.action === 'delete'),
    enqueued: lines.find((l) => 'enqueued' in l)?.enqueued,
  };
}

it('sends what changed through the workers, deletes what is gone, and learns what they stored', async () => {
  const pair = await filePair();
  const requests = () => emu.stats().ingestion.requests;

  const first = await syncThroughQueue(pair, ['--wait']);
  expect(first.code, first.stderr).toBe(0);
  expect(first.plan).toMatchObject({ create: 4, update: 0, unchanged: 0, delete: 0 });
  expect(first.summary).toMatchObject({ created: 4, updated: 0, failed: 0, deleted: 0 });
  expect(pairIds(pair)).toEqual(['kb%2Fa.md', 'kb%2Fb.md', 'kb%2Fsub%2Fc.txt', 'kb%2Fsub%2Fd.txt']);

  // the journal holds what the workers stored: nothing to send
  let before = requests();
  const again = await syncThroughQueue(pair);
  expect(again.code, again.stderr).toBe(0);
  expect(again.plan).toMatchObject({ create: 0, update: 0, unchanged: 4, delete: 0 });
  expect(again.summary).toMatchObject({ run_id: null, enqueued: 0 });
  expect(requests()).toBe(before);

  await writeFile(join(work, 'kb', 'a.md'), '# A, changed');
  await unlink(join(work, 'kb', 'sub', 'd.txt'));
  await writeFile(join(work, 'kb', 'e.md'), '# E');
  before = requests();
  const changed = await syncThroughQueue(pair, ['--wait']);
  expect(changed.code, changed.stderr).toBe(0);
  expect(changed.plan).toMatchObject({ create: 1, update: 1, unchanged: 2, delete: 1 });
  expect(changed.summary).toMatchObject({ created: 1, updated: 1, deleted: 1, failed: 0 });
  expect(changed.deletions).toEqual([
    { action: 'delete', status: 'deleted', document_id: 'kb%2Fsub%2Fd.txt' },
  ]);
  expect(requests() - before).toBe(2);
  expect(pairIds(pair)).toEqual(['kb%2Fa.md', 'kb%2Fb.md', 'kb%2Fe.md', 'kb%2Fsub%2Fc.txt']);

  // without --wait: enqueued, deleted at once; the next sync takes the acknowledgements first
  await writeFile(join(work, 'kb', 'b.md'), '# B, changed');
  const queued = await syncThroughQueue(pair);
  expect(queued.code, queued.stderr).toBe(0);
  expect(queued.plan).toMatchObject({ update: 1, unchanged: 3 });
  const runId = (queued.enqueued as { run_id: string }).run_id;
  await until(
    async () => (await queueStatus({ connection: redis.url, runId })).runs[0]?.finished === true,
    'the queued sync to finish',
  );
  before = requests();
  const last = await syncThroughQueue(pair);
  expect(last.plan).toMatchObject({ create: 0, update: 0, unchanged: 4, delete: 0 });
  expect(requests()).toBe(before);
});

it('a sync after a queued ingest sends only what changed: two workers fed the journal', async () => {
  // as docs/scaling.md tells it: ingest through the queue (no --wait), workers on their own
  // machines, then a sync with --prune --wait
  await writeTree(
    join(work, 'corpus'),
    Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [
        `part-${i % 3}/note-${i}.md`,
        `# Note ${i}\n\nBody ${i}.`,
      ]),
    ),
  );
  const pair = await filePair('corpus');
  const second = await startKisWorker(['--queue', redis.url, '--root', work], { env, cwd: work });
  try {
    const produced = await kis(
      [
        '--json',
        'ingest',
        'corpus',
        '--cc-pair',
        String(pair),
        '--queue',
        redis.url,
        '--root',
        work,
      ],
      { env, cwd: work },
    );
    expect(produced.code, produced.stderr).toBe(0);
    const enqueued = jsonLines(produced.stdout).find((l) => 'enqueued' in l)?.enqueued as
      | { run_id: string }
      | undefined;
    const runId = enqueued?.run_id ?? '';
    await until(
      async () => (await queueStatus({ connection: redis.url, runId })).runs[0]?.finished === true,
      'the queued ingest to finish',
    );
    await writeFile(join(work, 'corpus', 'part-0', 'note-0.md'), '# Note 0, changed');
    await unlink(join(work, 'corpus', 'part-1', 'note-1.md'));
    const before = emu.stats().ingestion.requests;
    const r = await kis(
      [
        '--json',
        'sync',
        'corpus',
        '--cc-pair',
        String(pair),
        '--queue',
        redis.url,
        '--root',
        work,
        '--prune',
        '--wait',
      ],
      { env, cwd: work },
    );
    expect(r.code, r.stderr).toBe(0);
    const plan = jsonLines(r.stdout).find((l) => 'plan' in l && typeof l.plan === 'object')?.plan;
    expect(plan).toMatchObject({ create: 0, update: 1, unchanged: 28, delete: 1 });
    expect(emu.stats().ingestion.requests - before).toBe(1);
    // and an ingest again through the queue enqueues nothing the journal holds unchanged
    const again = await kis(
      [
        '--json',
        'ingest',
        'corpus',
        '--cc-pair',
        String(pair),
        '--queue',
        redis.url,
        '--root',
        work,
      ],
      { env, cwd: work },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(jsonLines(again.stdout).find((l) => 'enqueued' in l)?.enqueued).toMatchObject({
      documents: 0,
      skipped: 29,
    });
  } finally {
    expect((await second.stop()).code).toBe(0);
  }
});
