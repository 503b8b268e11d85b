// Queue mode for a database and a repository, end to end: the built `kis` as producer
// (`kis ingest|sync postgres://… --queue`, `git+file://…`) and two `kis worker` processes that
// hold the database by name (`--connection crm=CRM_URL`), on a private redis-server, PostgreSQL
// and the emulator. Every row and file stored once, the cursor and commit moved on after --wait
// (the next run enqueues only what changed), deletions done by the producer, a worker without the
// connection a job names stopping with exit 2, and the password in no output, Redis write or
// `kis queue status`.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '@kis/emulator';
import { startRedis, type TestRedis } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, emulator, envFor, jsonLines, type KisResult, kis } from '../helpers/cli.js';
import { type KisWorker, startKisWorker } from '../helpers/queue.js';
import {
  CANARY,
  createTickets,
  filesText,
  insertTickets,
  startDatabase,
  type TestDatabase,
  tickets,
} from '../helpers/sql.js';

let redis: TestRedis;
let db: TestDatabase;
let emu: Emulator;
let work: string;
let env: Record<string, string>;
const running: KisWorker[] = [];
/** Everything every process printed, for the canary. */
const printed: string[] = [];

beforeAll(async () => {
  assertBuilt();
  [redis, db, emu] = await Promise.all([
    startRedis(),
    startDatabase('postgres'),
    emulator({ latencyMs: 5 }),
  ]);
  env = envFor(emu);
  work = await mkdtemp(join(tmpdir(), 'kis-queue-sql-git-'));
}, 120_000);
afterAll(async () => {
  for (const w of running.splice(0)) await w.kill();
  await emu?.close();
  await Promise.all([redis?.close(), db?.close()]);
  if (work) await rm(work, { recursive: true, force: true });
});

const on = (queue: string) => ['--queue', redis.url, '--queue-name', queue];
const MAPPING = [
  '--table',
  'tickets',
  '--id',
  'id',
  '--title',
  'subject',
  '--text',
  'body',
  '--updated-at',
  'updated_at',
  '--namespace',
  'crm/',
];

async function workers(queue: string, extra: string[]): Promise<KisWorker[]> {
  const started = await Promise.all(
    [1, 2].map(() =>
      startKisWorker([...on(queue), '-c', '2', ...extra], {
        env: { ...env, CRM_URL: db.url },
        cwd: work,
      }),
    ),
  );
  running.push(...started);
  return started;
}

async function stopAll(ws: KisWorker[]): Promise<KisResult[]> {
  for (const w of ws) running.splice(running.indexOf(w), 1);
  const ends = await Promise.all(ws.map((w) => w.stop()));
  for (const end of ends) printed.push(end.stdout, end.stderr);
  return ends;
}

const produce = async (args: string[], cwd = work) => {
  const r = await kis(args, { env, cwd });
  printed.push(r.stdout, r.stderr);
  return r;
};
const enqueuedOf = (r: KisResult) =>
  jsonLines(r.stdout).find((l) => 'enqueued' in l)?.enqueued as Record<string, unknown>;
const summaryOf = (r: KisResult) =>
  jsonLines(r.stdout).find((l) => 'summary' in l)?.summary as Record<string, number>;

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
    { cwd: dir, encoding: 'utf8' },
  ).trim();

describe('kis ingest|sync --queue of a database and a repository', () => {
  it('two workers store every row once, then the next run enqueues only what changed', async () => {
    await db.sql(createTickets('postgres', tickets(40)));
    const ws = await workers('sql', ['--connection', 'crm=CRM_URL']);
    const first = await produce([
      '--json',
      'ingest',
      db.url,
      ...MAPPING,
      ...on('sql'),
      '--connection',
      'crm',
      '--batch-size',
      '5',
      '--cc-pair',
      '1',
      '--wait',
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(enqueuedOf(first)).toMatchObject({ documents: 40, jobs: 8 });
    expect(summaryOf(first)).toMatchObject({ created: 40, failed: 0 });
    expect(emu.stats().ingestion).toMatchObject({ requests: 40, resent_after_ack: 0 });

    await db.sql(
      "UPDATE tickets SET body = 'Edited.', updated_at = '2024-06-01 00:00:00' WHERE id IN (2, 30);",
    );
    const second = await produce([
      '--json',
      'ingest',
      db.url,
      ...MAPPING,
      ...on('sql'),
      '--connection',
      'crm',
      '--cc-pair',
      '1',
      '--wait',
    ]);
    expect(second.code, second.stderr).toBe(0);
    // the two rows updated and the row at the last cursor (jobs carry keys: an upsert)
    expect(enqueuedOf(second)).toMatchObject({ documents: 3 });
    expect(emu.state.document('crm%2F30')?.sections).toEqual([
      expect.objectContaining({ text: 'Edited.' }),
    ]);
    const ends = await stopAll(ws);
    for (const end of ends) expect(end.code, end.stderr).toBe(0);
  });

  it('syncs with --prune: the producer deletes what is gone once the workers stored the rest', async () => {
    const ws = await workers('sql-sync', ['--connection', 'kis=CRM_URL']);
    await db.sql(
      `DELETE FROM tickets WHERE id IN (7, 8); ${insertTickets([{ id: 41, subject: 'New', body: 'New.', updated: '2024-07-01 00:00:00' }])}`,
    );
    // the workers hold the database by its name, kis: the default the producer gives jobs
    const r = await produce([
      '--json',
      'sync',
      db.url,
      ...MAPPING,
      ...on('sql-sync'),
      '--cc-pair',
      '1',
      '--prune',
      '--wait',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(summaryOf(r)).toMatchObject({ deleted: 2, failed: 0 });
    expect(emu.state.document('crm%2F7')).toBeUndefined();
    expect(emu.state.document('crm%2F41')?.semantic_identifier).toBe('New');
    await stopAll(ws);
  });

  it('stops a worker that holds no connection of the name a job gives, exit 2', async () => {
    const queued = await produce([
      'ingest',
      db.url,
      ...MAPPING,
      ...on('sql-missing'),
      '--connection',
      'crm',
    ]);
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stderr).toContain('kis worker --connection crm=ENV_VAR');
    const [w] = await Promise.all(
      [1].map(() =>
        startKisWorker([...on('sql-missing'), '--connection', 'erp=CRM_URL'], {
          env: { ...env, CRM_URL: db.url },
          cwd: work,
        }),
      ),
    );
    const end = await (w as KisWorker).exited;
    printed.push(end.stdout, end.stderr);
    expect(end.code).toBe(2);
    expect(end.stderr).toMatch(
      /error: worker \S+ stopped: this worker holds no connection "crm" \(postgres:\/\/kis@127\.0\.0\.1:\d+\/kis\), which run \S+ reads; it holds "erp": start it with --connection crm=ENV_VAR/,
    );
    const unset = await kis(['worker', ...on('sql-missing'), '--connection', 'crm=NOT_SET'], {
      env,
      cwd: work,
    });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toBe(
      'error: --connection crm=NOT_SET: environment variable NOT_SET is not set (it holds the connection string of "crm")\n',
    );
  });

  it('two workers store the files of a commit under --root, then the diff of the next', async () => {
    const repo = join(work, 'repos', 'handbook');
    await mkdir(join(repo, 'pages'), { recursive: true });
    git(repo, 'init', '-q');
    for (let i = 0; i < 12; i++) await writeFile(join(repo, 'pages', `p${i}.md`), `# Page ${i}\n`);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'first');
    const root = join(work, 'repos');
    // workers run elsewhere: they read the repository under their own --root
    const elsewhere = await mkdtemp(join(tmpdir(), 'kis-queue-git-worker-'));
    const ws = await Promise.all(
      [1, 2].map(() =>
        startKisWorker([...on('git'), '--root', root, '-c', '2'], { env, cwd: elsewhere }),
      ),
    );
    running.push(...ws);
    const location = `git+file://${repo}#main`;
    const args = ['--json', 'sync', location, ...on('git'), '--root', root, '--cc-pair', '1'];
    const first = await produce([...args, '--prune', '--batch-size', '3', '--wait']);
    expect(first.code, first.stderr).toBe(0);
    expect(enqueuedOf(first)).toMatchObject({ documents: 12, jobs: 4 });
    expect(emu.state.document('handbook%2Fpages%2Fp3.md')).toBeDefined();

    await writeFile(join(repo, 'pages', 'p1.md'), '# Page 1\n\nEdited.\n');
    await unlink(join(repo, 'pages', 'p2.md'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'second');
    const second = await produce([...args, '--prune', '--wait']);
    expect(second.code, second.stderr).toBe(0);
    expect(enqueuedOf(second)).toMatchObject({ documents: 1 });
    expect(summaryOf(second)).toMatchObject({ deleted: 1, failed: 0 });
    expect(emu.state.document('handbook%2Fpages%2Fp2.md')).toBeUndefined();
    await stopAll(ws);
    await rm(elsewhere, { recursive: true, force: true });
  });

  it('leaves the password in no output, Redis write, journal or kis queue status', async () => {
    for (const queue of ['sql', 'sql-sync', 'sql-missing']) {
      const status = await kis(['--json', 'queue', 'status', ...on(queue)], { env, cwd: work });
      expect(status.code, status.stderr).toBe(0);
      printed.push(status.stdout, status.stderr);
    }
    expect(printed.join('\n')).toContain('postgres://kis@127.0.0.1');
    expect(printed.join('\n')).not.toContain(CANARY);
    // Redis's append-only file holds every write it was sent
    expect(filesText(redis.dir)).toContain('crm');
    expect(filesText(redis.dir)).not.toContain(CANARY);
    expect(filesText(work)).not.toContain(CANARY);
  });
});
