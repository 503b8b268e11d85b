/**
 * Queue mode for SQL and git sources with two workers: jobs name key ranges (SQL) and commits
 * with paths and blob ids (git), workers read rows and blobs themselves, every document is stored
 * once, an incremental second run sends only what changed, and no connection string or password
 * ever reaches Redis.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Emulator, startEmulator } from '@kis/emulator';
import { gitSource, openJournal, sqlSource } from '@kis/node';
import { startPostgres, startRedis, type TestPostgres, type TestRedis } from '@kis/test-support';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, queueStatus, startWorker } from '../src/index.js';
import { KEY, tempDir, until } from './helpers.js';

const CANARY = 'kis-canary-5e3';

/** Every value Redis holds, as text (job data, run state): what must never hold a password. */
async function everything(url: string): Promise<string> {
  const redis = new Redis(url);
  try {
    const out: string[] = [];
    for (const key of await redis.keys('*')) {
      const type = await redis.type(key);
      if (type === 'string') out.push(String(await redis.getBuffer(key)));
      else if (type === 'hash') out.push(JSON.stringify(await redis.hgetall(key)));
      else if (type === 'list') out.push(JSON.stringify(await redis.lrange(key, 0, -1)));
      else if (type === 'set') out.push(JSON.stringify(await redis.smembers(key)));
      else if (type === 'zset') out.push(JSON.stringify(await redis.zrange(key, 0, -1)));
      else if (type === 'stream') out.push(JSON.stringify(await redis.xrange(key, '-', '+')));
    }
    return out.join('\n');
  } finally {
    redis.disconnect();
  }
}

const git = (dir: string, ...args: string[]) =>
  execFileSync(
    'git',
    [
      '-c',
      'user.name=Kis',
      '-c',
      'user.email=kis@example.com',
      '-c',
      'init.defaultBranch=main',
      ...args,
    ],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  ).trim();

describe('queue mode for SQL and git sources', () => {
  let redis: TestRedis;
  let db: TestPostgres;
  let emulator: Emulator;
  const corpus = tempDir('sql-git');

  beforeAll(async () => {
    [redis, db, emulator] = await Promise.all([
      startRedis(),
      startPostgres({ password: CANARY }),
      startEmulator({ adminKey: KEY, latencyMs: 2 }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await emulator?.close();
    await Promise.all([redis?.close(), db?.close()]);
    corpus.remove();
  });

  const finished = (target: { connection: string; queue: string }, runId: string) =>
    until(async () => {
      const status = await queueStatus({ ...target, runId });
      return status.runs[0]?.finished === true;
    }, `run ${runId} to finish`);

  it('stores the rows of key ranges once with two workers, then only what changed', async () => {
    await db.sql(`CREATE TABLE tickets AS
      SELECT n AS id, 'Ticket ' || n AS subject, 'Body of ticket ' || n AS body,
             timestamptz '2024-01-01' + n * interval '1 minute' AS updated_at
      FROM generate_series(1, 57) AS n;`);
    const target = { connection: redis.url, queue: 'sql' };
    const journal = openJournal(join(corpus.dir, 'sql.jsonl'));
    const mapping = {
      table: 'tickets',
      id: 'id',
      title: 'subject',
      text: 'body',
      updatedAt: 'updated_at',
      idPrefix: 'crm/',
    };
    const first = sqlSource({ connection: db.url, ...mapping, state: journal });
    const run1 = await enqueue(
      { kind: 'sql', source: first, connection: 'crm' },
      { ...target, batchSize: 10 },
    );
    expect(run1).toMatchObject({ documents: 57, jobs: 6 });

    const kis = { baseUrl: emulator.baseUrl, apiKey: KEY };
    const workers = await Promise.all(
      ['w1', 'w2'].map((name) =>
        startWorker({ ...target, kis, connections: { crm: db.url }, concurrency: 3, name }),
      ),
    );
    await finished(target, run1.runId);
    const [status1] = (await queueStatus({ ...target, runId: run1.runId })).runs;
    expect(status1?.documents).toMatchObject({ stored: 57, failed: 0, duplicates: 0 });
    expect(emulator.stats().ingestion).toMatchObject({ acknowledged: 57, resent_after_ack: 0 });
    expect(emulator.state.document('crm%2F57')?.semantic_identifier).toBe('Ticket 57');
    expect(await first.finish({ failed: status1?.documents.failed ?? 1, aborted: 0 })).toBe(true);

    await db.sql(
      "UPDATE tickets SET body = 'Changed', updated_at = timestamptz '2024-06-01' WHERE id IN (4, 40, 41);",
    );
    const before = emulator.stats().ingestion.requests;
    const second = sqlSource({ connection: db.url, ...mapping, state: journal });
    const run2 = await enqueue(
      { kind: 'sql', source: second, connection: 'crm' },
      { ...target, batchSize: 10 },
    );
    expect(second.window?.mode).toBe('incremental');
    // the three changed rows, and the row at the last cursor (read again: a row written later
    // with that same update time is not missed); jobs carry keys, so it is sent again, an upsert
    expect(run2.documents).toBe(4);
    await finished(target, run2.runId);
    expect(emulator.stats().ingestion.requests - before).toBe(4);
    const summaries = await Promise.all(workers.map((w) => w.close()));
    expect(summaries.every((s) => s.created + s.updated > 0)).toBe(true);
    journal.close();

    // jobs named the connection and the database without password; Redis holds neither
    const stored = await everything(redis.url);
    expect(stored).toContain('\\"connection\\":\\"crm\\"');
    expect(stored).not.toContain(CANARY);
  });

  it('stops a worker that holds no connection of the name a job gives', async () => {
    const target = { connection: redis.url, queue: 'sql-missing' };
    const source = sqlSource({ connection: db.url, table: 'tickets', id: 'id', text: 'body' });
    await enqueue({ kind: 'sql', source, connection: 'crm' }, { ...target, batchSize: 50 });
    const kis = { baseUrl: emulator.baseUrl, apiKey: KEY };
    const worker = await startWorker({
      ...target,
      kis,
      connections: { erp: db.urlWith({ database: 'erp' }) },
    });
    const summary = await worker.closed;
    expect(summary.stopped).toMatchObject({ reason: 'connection' });
    expect(summary.stopped?.message).toMatch(
      /^this worker holds no connection "crm" \(postgres:\/\/kis@127\.0\.0\.1:\d+\/kis\)/,
    );
  });

  it('stores the files of a commit once with two workers, then only the diff', async () => {
    const repo = join(corpus.dir, 'handbook');
    mkdirSync(join(repo, 'pages'), { recursive: true });
    git(repo, 'init', '-q');
    for (let i = 0; i < 23; i++)
      writeFileSync(join(repo, 'pages', `p${i}.md`), `# Page ${i}\n\nText ${i}.\n`);
    writeFileSync(join(repo, 'logo.svg'), '<svg/>');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'first');
    const target = { connection: redis.url, queue: 'git' };
    const journal = openJournal(join(corpus.dir, 'git.jsonl'));
    const first = gitSource({
      repository: repo,
      state: journal,
      link: 'https://git.example.com/{ref}/{path}',
    });
    const run1 = await enqueue(
      { kind: 'git', source: first, root: corpus.dir },
      { ...target, batchSize: 5 },
    );
    expect(run1).toMatchObject({ documents: 23, jobs: 5 });
    const kis = { baseUrl: emulator.baseUrl, apiKey: KEY };
    const workers = await Promise.all(
      ['g1', 'g2'].map((name) =>
        startWorker({ ...target, kis, root: corpus.dir, concurrency: 2, name }),
      ),
    );
    await finished(target, run1.runId);
    const [status1] = (await queueStatus({ ...target, runId: run1.runId })).runs;
    expect(status1?.documents).toMatchObject({ stored: 23, failed: 0 });
    expect(emulator.state.document('handbook%2Fpages%2Fp3.md')).toMatchObject({
      semantic_identifier: 'p3.md',
      sections: [expect.objectContaining({ link: 'https://git.example.com/main/pages/p3.md' })],
    });
    expect(await first.finish({ failed: 0, aborted: 0 })).toBe(true);

    writeFileSync(join(repo, 'pages', 'p1.md'), '# Page 1\n\nChanged.\n');
    writeFileSync(join(repo, 'pages', 'p2.md'), '# Page 2\n\nChanged.\n');
    git(repo, 'commit', '-q', '-am', 'second');
    const before = emulator.stats().ingestion.requests;
    const second = gitSource({
      repository: repo,
      state: journal,
      link: 'https://git.example.com/{ref}/{path}',
    });
    const run2 = await enqueue(
      { kind: 'git', source: second, root: corpus.dir },
      { ...target, batchSize: 5 },
    );
    expect(second.run?.mode).toBe('incremental');
    expect(run2.documents).toBe(2);
    await finished(target, run2.runId);
    expect(emulator.stats().ingestion.requests - before).toBe(2);
    await Promise.all(workers.map((w) => w.close()));
    journal.close();
  });
});
