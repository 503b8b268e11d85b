// Queue mode end to end: the built `kis` as producer (`kis ingest --queue`), as workers
// (`kis worker`, each its own process) and as operator (`kis queue …`), on a private redis-server
// and the emulator: every document stored once with the ids of a local run, --wait's exit codes,
// a worker killed with SIGKILL losing nothing, the JSON of `kis queue`, and the one line that
// says how to get @kis/queue when it is not installed.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Emulator } from '@kis/emulator';
import { queueStatus } from '@kis/queue';
import { startRedis, type TestRedis } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  assertBuilt,
  collect,
  emulator,
  envFor,
  jsonLines,
  kis,
  spawnKis,
} from '../helpers/cli.js';
import { type KisWorker, startKisWorker, until } from '../helpers/queue.js';

let redis: TestRedis;
let emu: Emulator;
let work: string;
let elsewhere: string;
let env: Record<string, string>;
const running: KisWorker[] = [];

/** `count` small Markdown files under `work/name`. */
async function writeFolder(name: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const dir = join(work, name, `part-${Math.floor(i / 10)}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `note-${i}.md`), `# Note ${i}\n\nBody of note ${i}.\n`);
  }
}

beforeAll(async () => {
  assertBuilt();
  redis = await startRedis();
  emu = await emulator({ latencyMs: 20 });
  env = envFor(emu);
  work = await mkdtemp(join(tmpdir(), 'kis-queue-cli-'));
  // workers run from another directory: what they read depends on --root only
  elsewhere = await mkdtemp(join(tmpdir(), 'kis-queue-cli-elsewhere-'));
});
afterAll(async () => {
  for (const w of running.splice(0)) await w.kill();
  await emu?.close();
  await redis?.close();
  await rm(work, { recursive: true, force: true });
  await rm(elsewhere, { recursive: true, force: true });
});

const on = (queue: string) => ['--queue', redis.url, '--queue-name', queue];

async function worker(queue: string, extra: string[] = [], key = ADMIN_KEY): Promise<KisWorker> {
  const w = await startKisWorker([...on(queue), '--root', work, ...extra], {
    env: envFor(emu, key),
    cwd: elsewhere,
  });
  running.push(w);
  return w;
}

async function stop(w: KisWorker) {
  running.splice(running.indexOf(w), 1);
  return w.stop();
}

/** The `{"enqueued": …}` line of a producer. */
function enqueuedOf(stdout: string): Record<string, unknown> {
  const line = jsonLines(stdout).find((l) => 'enqueued' in l);
  if (!line) throw new Error(`no enqueued line in: ${stdout}`);
  return line.enqueued as Record<string, unknown>;
}

const finished = (queue: string, runId: string) =>
  until(
    async () =>
      (await queueStatus({ connection: redis.url, queue, runId })).runs[0]?.finished === true,
    `run ${runId} to finish`,
  );

const storedIds = () =>
  emu.state
    .documents({ limit: 1_000 })
    .map((d) => d.id)
    .sort();

describe('kis ingest --queue and kis worker', () => {
  it('two workers store every document of a folder once, with the ids of a local run', async () => {
    emu.state.reset();
    const before = emu.stats().ingestion;
    await writeFolder('corpus', 24);
    const local = await kis(['--json', 'ingest', 'corpus', '--dry-run'], { env, cwd: work });
    const localIds = jsonLines(local.stdout)
      .filter((l) => l.status === 'valid')
      .map((l) => l.document_id as string)
      .sort();
    expect(localIds).toHaveLength(24);

    // both workers wait for jobs before there are any: each takes part
    const workers = [await worker('two', ['-c', '2']), await worker('two', ['-c', '2'])];
    const produced = await kis(
      ['--json', 'ingest', 'corpus', ...on('two'), '--batch-size', '2', '--cc-pair', '1'],
      { env, cwd: work },
    );
    expect(produced.code, produced.stderr).toBe(0);
    const enqueued = enqueuedOf(produced.stdout);
    expect(enqueued).toMatchObject({ queue: 'two', documents: 24, jobs: 12, failed: 0 });
    expect(enqueued.run_id).toMatch(/^r\d{8}T\d{6}-[0-9a-f]{6}$/);
    await finished('two', enqueued.run_id as string);
    const ends = await Promise.all(workers.map(stop));
    for (const end of ends) {
      expect(end.code, end.stderr).toBe(0);
      const summary = jsonLines(end.stdout).find((l) => 'summary' in l)?.summary as {
        created: number;
        updated: number;
      };
      // both took part
      expect(summary.created + summary.updated).toBeGreaterThan(0);
      expect(`${end.stdout}${end.stderr}`).not.toContain(ADMIN_KEY);
    }
    expect(storedIds()).toEqual(localIds);
    const stats = emu.stats().ingestion;
    expect(stats.requests - before.requests).toBe(24);
    expect(stats.resent_after_ack - before.resent_after_ack).toBe(0);
  });

  it('--wait follows the run: exit 0 when all are stored, 1 when some fail (with reasons)', async () => {
    emu.state.reset();
    await writeFolder('waited', 6);
    const w = await worker('wait');
    const ok = await kis(['--json', 'ingest', 'waited', ...on('wait'), '--wait'], {
      env,
      cwd: work,
    });
    expect(ok.code, ok.stderr).toBe(0);
    const summary = jsonLines(ok.stdout).find((l) => 'summary' in l)?.summary;
    expect(summary).toMatchObject({ created: 6, updated: 0, failed: 0, pending: 0 });

    await mkdir(join(work, 'mixed'), { recursive: true });
    await writeFile(join(work, 'mixed', 'good.md'), '# Good');
    await writeFile(join(work, 'mixed', 'broken.json'), '{"a": ');
    const mixed = await kis(['--json', 'ingest', 'mixed', ...on('wait'), '--wait'], {
      env,
      cwd: work,
    });
    expect(mixed.code, mixed.stderr).toBe(1);
    const lines = jsonLines(mixed.stdout);
    const failed = lines.find((l) => l.status === 'failed');
    expect(failed).toMatchObject({ ref: 'mixed/broken.json', status: 'failed' });
    expect(failed?.error).toMatch(/JSON/);
    expect(lines.find((l) => 'summary' in l)?.summary).toMatchObject({ created: 1, failed: 1 });
    expect((await stop(w)).code).toBe(0);
  });

  it('JSONL files go as byte ranges, stdin as documents in the jobs', async () => {
    emu.state.reset();
    const doc = (id: string) =>
      JSON.stringify({ id, semantic_identifier: id, sections: [{ text: id }], metadata: {} });
    await writeFile(
      join(work, 'export.jsonl'),
      `${[doc('x1'), doc('x2'), '', doc('x3')].join('\n')}\n`,
    );
    const w = await worker('lines');
    const file = await kis(
      ['--json', 'ingest', 'export.jsonl', ...on('lines'), '--rate', '200/s', '--wait'],
      { env, cwd: work },
    );
    expect(file.code, file.stderr).toBe(0);
    // the rate holds per request: jobs keep their size
    expect(enqueuedOf(file.stdout)).toMatchObject({
      documents: 3,
      jobs: 1,
      batch_size: 50,
      rate_per_sec: 200,
    });
    const piped = await kis(['--json', 'ingest', '-', ...on('lines'), '--rate', 'none', '--wait'], {
      env,
      cwd: work,
      input: `${doc('s1')}\n[1, 2]\n${doc('s2')}\n`,
    });
    expect(piped.code, piped.stderr).toBe(1);
    const lines = jsonLines(piped.stdout);
    expect(enqueuedOf(piped.stdout)).toMatchObject({ documents: 2, jobs: 1, failed: 1 });
    expect(lines.find((l) => l.status === 'failed')).toMatchObject({ ref: 'stdin:2' });
    expect(lines.find((l) => 'summary' in l)?.summary).toMatchObject({ created: 2, failed: 1 });
    expect(storedIds()).toEqual(['s1', 's2', 'x1', 'x2', 'x3']);
    expect((await stop(w)).code).toBe(0);
  });

  it('four workers started after the enqueue keep to their --rate, whatever a job holds', async () => {
    const log: number[] = [];
    const counted = await emulator({
      logRequest: (line) => {
        const m = /^POST \S*\/ingestion \d+ ([\d.]+)ms$/.exec(line);
        if (m) log.push(Date.now() - Number(m[1]));
      },
    });
    try {
      const doc = (i: number) =>
        JSON.stringify({
          id: `r${i}`,
          semantic_identifier: `R ${i}`,
          sections: [{ text: 'r' }],
          metadata: {},
        });
      await writeFile(
        join(work, 'rated.jsonl'),
        `${Array.from({ length: 200 }, (_, i) => doc(i)).join('\n')}\n`,
      );
      // default flags: jobs of 50 documents
      const produced = await kis(
        ['--json', 'ingest', 'rated.jsonl', ...on('rated'), '--root', work],
        {
          env: envFor(counted),
          cwd: work,
        },
      );
      expect(produced.code, produced.stderr).toBe(0);
      const runId = enqueuedOf(produced.stdout).run_id as string;
      const four = [];
      for (let i = 0; i < 4; i++) {
        const w = await startKisWorker([...on('rated'), '--root', work, '--rate', '50/s'], {
          env: envFor(counted),
          cwd: elsewhere,
        });
        running.push(w);
        four.push(w);
      }
      expect(four[0]?.output().stdout).toContain('"rate_per_sec":50');
      await finished('rated', runId);
      for (const w of four) expect((await stop(w)).code).toBe(0);
      expect(log).toHaveLength(200);
      const perSecond = new Map<number, number>();
      for (const t of log)
        perSecond.set(Math.floor(t / 1000), (perSecond.get(Math.floor(t / 1000)) ?? 0) + 1);
      // one of slack: the gate spaces starts, and a start delayed on a busy machine can arrive in
      // the same second as the next one
      expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(50 + 1);
      // used, not only respected
      expect(199 / ((Math.max(...log) - Math.min(...log)) / 1000)).toBeGreaterThan(40);
    } finally {
      await counted.close();
    }
  });

  it('a worker refuses to start on a key the server refuses (exit 3) or a wrong --root (exit 2)', async () => {
    emu.state.reset();
    await writeFolder('refused', 3);
    const waiting = spawnKis(['ingest', 'refused', ...on('refused'), '--wait'], { env, cwd: work });
    const producer = collect(waiting);
    await until(
      async () => (await queueStatus({ connection: redis.url, queue: 'refused' })).runs.length > 0,
      'the run to be enqueued',
    );
    const badKey = 'kis-test-wrong-key-0a1b2c3d4e5f';
    const refused = await kis(['worker', ...on('refused'), '--root', work], {
      env: envFor(emu, badKey),
      cwd: elsewhere,
    });
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stdout).not.toContain('taking jobs');
    expect(refused.stderr).toMatch(/authentication failed: .* the API key was rejected/);
    expect(`${refused.stdout}${refused.stderr}`).not.toContain(badKey);
    // the producer waiting on the run learns why nothing moves
    const end = await producer;
    expect(end.code, end.stderr).toBe(3);
    expect(end.stderr).toMatch(
      /no worker is taking the run's jobs: worker kis-worker-\S+ stopped: .*key/,
    );
    expect(storedIds()).toEqual([]);

    const wrongRoot = await kis(['worker', ...on('refused'), '--root', elsewhere], {
      env,
      cwd: elsewhere,
    });
    expect(wrongRoot.code, wrongRoot.stderr).toBe(2);
    expect(wrongRoot.stderr.trim()).toMatch(
      /^error: root \S+ holds none of the 3 file\(s\) job \S+ names \(such as refused\/part-0\/note-0\.md\) nor their folders: start the worker with --root set to the folder the producer gave as --root/,
    );
    expect(storedIds()).toEqual([]);
  });

  it('a worker killed with SIGKILL mid-run loses nothing: another finishes its jobs', async () => {
    // a slower server, so that the worker is killed with requests on the wire
    const slow = await emulator({ latencyMs: 150 });
    try {
      await writeFolder('killed', 40);
      const recovery = ['--lock-duration', '2s', '--stalled-interval', '1s', '-c', '4'];
      const produced = await kis(
        ['--json', 'ingest', 'killed', ...on('killed'), '--batch-size', '4'],
        { env: envFor(slow), cwd: work },
      );
      const runId = enqueuedOf(produced.stdout).run_id as string;
      const start = () =>
        startKisWorker([...on('killed'), '--root', work, ...recovery], {
          env: envFor(slow),
          cwd: elsewhere,
        });
      const first = await start();
      await until(() => slow.stats().ingestion.acknowledged >= 8, 'some documents stored');
      await first.kill();
      const second = await start();
      await finished('killed', runId);
      expect((await second.stop()).code).toBe(0);
      const run = (await queueStatus({ connection: redis.url, queue: 'killed', runId })).runs[0];
      expect(run?.documents).toMatchObject({ total: 40, stored: 40, failed: 0, pending: 0 });
      expect(slow.state.documents({ limit: 100 })).toHaveLength(40);
      // sent again: at most what the killed worker had in flight (one per job it held)
      expect(slow.stats().ingestion.requests - 40).toBeLessThanOrEqual(4);
      expect(run?.documents.duplicates).toBeLessThanOrEqual(4);
    } finally {
      await slow.close();
    }
  });
});

describe('kis queue', () => {
  it('status, failed, retry, clean and limits, as JSON', async () => {
    emu.state.reset();
    await mkdir(join(work, 'ops'), { recursive: true });
    await writeFile(join(work, 'ops', 'ok.md'), '# OK');
    await writeFile(join(work, 'ops', 'broken.json'), '{"a": ');
    const produced = await kis(['--json', 'ingest', 'ops', ...on('ops')], { env, cwd: work });
    const runId = enqueuedOf(produced.stdout).run_id as string;
    const w = await worker('ops');
    await finished('ops', runId);

    const queueEnv = { ...env, KIS_QUEUE: redis.url };
    const status = await kis(['--json', 'queue', 'status', runId, '--queue-name', 'ops'], {
      env: queueEnv,
    });
    expect(status.code, status.stderr).toBe(0);
    const [shape] = jsonLines(status.stdout);
    expect(shape).toMatchObject({
      queue: 'ops',
      workers: 1,
      paused: false,
      limits: { max_in_flight: null, rate_per_sec: null },
      jobs: { waiting: 0, active: 0, failed: 1 },
      worker_stops: [],
      runs: [
        {
          run_id: runId,
          state: 'failed',
          enqueue_state: 'enqueued',
          finished: true,
          cc_pair_id: 1,
          sources: [{ kind: 'files', root: work }],
          documents: { total: 2, created: 1, stored: 1, failed: 1, pending: 0, duplicates: 0 },
          jobs: { total: 1, completed: 0, failed: 1, active: 0, waiting: 0 },
          throughput: {
            per_sec: expect.any(Number),
            recent_per_sec: expect.any(Number),
            overall_per_sec: expect.any(Number),
          },
          failures: [
            { ref: 'ops/broken.json', run_id: runId, reason: expect.stringMatching(/JSON/) },
          ],
        },
      ],
    });

    // a finished run's rate is the whole run's, fixed; the text says the same state as the JSON
    const run = (shape?.runs as { throughput: Record<string, number> }[] | undefined)?.[0];
    expect(run?.throughput.per_sec).toBe(run?.throughput.overall_per_sec);
    expect(shape?.requests_per_sec).toEqual(expect.any(Number));
    const text = await kis(['queue', 'status', runId, '--queue-name', 'ops'], { env: queueEnv });
    const row = text.stdout.split('\n').find((l) => l.startsWith(runId));
    expect(row?.split(/\s+/)[1]).toBe('failed');
    expect(text.stdout).toMatch(/^limits: none; requests: [\d.]+\/s over the last 10 s$/m);

    const failed = await kis(['--json', 'queue', 'failed', '--queue-name', 'ops'], {
      env: queueEnv,
    });
    expect(jsonLines(failed.stdout)).toEqual([
      {
        run_id: runId,
        ordinal: expect.any(Number),
        ref: 'ops/broken.json',
        document_id: null,
        reason: expect.stringMatching(/JSON/),
        http_status: null,
        attempts: expect.any(Number),
        at: expect.any(String),
        job_id: `${runId}.0`,
      },
    ]);

    await writeFile(join(work, 'ops', 'broken.json'), '{"a": 1}');
    const retried = await kis(['--json', 'queue', 'retry', runId, '--queue-name', 'ops'], {
      env: queueEnv,
    });
    expect(jsonLines(retried.stdout)).toEqual([{ retried: { jobs: 1, documents: 1 } }]);
    await until(
      async () =>
        (await queueStatus({ connection: redis.url, queue: 'ops', runId })).runs[0]?.documents
          .stored === 2,
      'the retried document to be stored',
    );
    await stop(w);

    const cleaned = await kis(['--json', 'queue', 'clean', '--queue-name', 'ops'], {
      env: queueEnv,
    });
    expect(jsonLines(cleaned.stdout)).toEqual([
      { cleaned: { runs: [runId], jobs: 1, unfinished: [] } },
    ]);
    const empty = await kis(['queue', 'status', '--queue-name', 'ops'], { env: queueEnv });
    expect(empty.stdout).toContain('no runs');

    const set = await kis(
      [
        '--json',
        'queue',
        'limits',
        '--queue-name',
        'ops',
        '--max-in-flight',
        '4',
        '--rate',
        '100/s',
      ],
      { env: queueEnv },
    );
    expect(jsonLines(set.stdout)).toEqual([{ limits: { max_in_flight: 4, rate_per_sec: 100 } }]);
    const removed = await kis(
      [
        '--json',
        'queue',
        'limits',
        '--queue-name',
        'ops',
        '--max-in-flight',
        'none',
        '--rate',
        'none',
      ],
      { env: queueEnv },
    );
    expect(jsonLines(removed.stdout)).toEqual([
      { limits: { max_in_flight: null, rate_per_sec: null } },
    ]);
  });

  it('refuses what queue mode cannot do, in one line each', async () => {
    await mkdir(join(work, 'r1'), { recursive: true });
    await mkdir(join(work, 'r2'), { recursive: true });
    const refused = async (args: string[]) => {
      const r = await kis(args, { env, cwd: work });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      return r.stderr.trim();
    };
    expect(await refused(['ingest', 'r1', '--root', '.'])).toBe(
      'error: --root: only with --queue (queue mode)',
    );
    expect(await refused(['ingest', 'r1', ...on('x'), '--dry-run'])).toMatch(
      /^error: --dry-run: not with --queue/,
    );
    expect(await refused(['ingest', 'r1', ...on('x'), '-c', '4'])).toMatch(
      /^error: --concurrency: with --queue, workers send/,
    );
    expect(await refused(['ingest', 'r1', '--queue', 'http://127.0.0.1:1'])).toMatch(
      /^error: --queue: "http:\/\/127.0.0.1:1" must be a redis:\/\/ or rediss:\/\/ URL/,
    );
    expect(await refused(['ingest', 'r1', ...on('x'), '--root', 'r2'])).toMatch(
      /^error: --root: \S+r1 is outside \S+r2; workers read paths under --root/,
    );
    const noQueue = await kis(['queue', 'status'], { env });
    expect(noQueue.code).toBe(2);
    expect(noQueue.stderr).toContain(
      'missing queue: pass --queue redis://HOST:PORT/DB or set KIS_QUEUE',
    );
  });
});

describe('without @kis/queue installed', () => {
  let dir = '';
  let options: { env: Record<string, string>; cwd: string };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kis-no-queue-'));
    await mkdir(join(work, 'np'), { recursive: true });
    await writeFile(join(work, 'np', 'a.md'), '# A');
    // resolution of @kis/queue fails as it does when the package is not installed
    const hooks = join(dir, 'hooks.mjs');
    await writeFile(
      hooks,
      `export async function resolve(specifier, context, next) {
  if (specifier === '@kis/queue' || specifier.startsWith('@kis/queue/')) {
    const error = new Error("Cannot find package '@kis/queue' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`,
    );
    const register = join(dir, 'register.mjs');
    await writeFile(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    options = {
      env: { ...env, NODE_OPTIONS: `--import=${pathToFileURL(register).href}` },
      cwd: work,
    };
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('kis worker, kis queue and --queue say in one line how to get it; the rest works', async () => {
    for (const [args, what] of [
      [['worker', '--queue', redis.url], 'kis worker'],
      [['queue', 'status', '--queue', redis.url], 'kis queue status'],
      [['ingest', 'np', '--queue', redis.url], 'kis ingest --queue'],
      [['sync', 'np', '--cc-pair', '1', '--queue', redis.url], 'kis sync --queue'],
    ] as const) {
      const r = await kis(args, options);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim()).toBe(
        `error: ${what} needs the optional package @kis/queue: install it beside the CLI (npm i @kis/queue, or npm i -g @kis/queue for a global kis)`,
      );
    }
    const local = await kis(['ingest', 'np', '--dry-run'], options);
    expect(local.code, local.stderr).toBe(0);
  });
});
