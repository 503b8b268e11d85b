// `kis sync` with its default flags against the emulator (both profiles, through a recording
// proxy): the requests sent are exactly what changed in the folder, prunes keep to the ids the
// folder owns, an emptied folder does not wipe the pair, a lost journal creates no duplicate.
import { appendFile, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '@kis/emulator';
import { writeTree } from '@kis/test-support';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  assertBuilt,
  collect,
  emulator,
  jsonLines,
  kis,
  type Recorder,
  recordingProxy,
  spawnKis,
  waitForJournal,
} from '../helpers/cli.js';

let emu: Emulator;
let proxy: Recorder;
let work: string;
let env: Record<string, string>;

beforeAll(async () => {
  assertBuilt();
  emu = await emulator();
  proxy = await recordingProxy(emu);
  env = { KIS_BASE_URL: proxy.baseUrl, KIS_API_KEY: ADMIN_KEY };
});
afterAll(async () => {
  await proxy?.close();
  await emu?.close();
});

let pair: number;
beforeEach(async () => {
  emu.state.reset();
  work = await mkdtemp(join(tmpdir(), 'kis-sync-'));
  await writeTree(work, {
    'docs/a.md': '# A\n\nalpha',
    'docs/b.txt': 'beta',
    'docs/sub/c.md': 'gamma',
    'other/x.txt': 'another source sharing the pair',
  });
  const config = '{"file_locations": []}';
  const created = await run([
    '--json',
    'connector',
    'create',
    '--name',
    'f',
    '--source',
    'file',
    '--config',
    config,
  ]);
  pair = jsonLines(created.stdout)[0]?.cc_pair_id as number;
  expect((await run(['ingest', 'other', '--cc-pair', String(pair)])).code).toBe(0);
  proxy.requests.length = 0;
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

const run = (args: string[]) => kis(args, { env, cwd: work });
const sync = (...extra: string[]) => run(['sync', 'docs', '--cc-pair', String(pair), ...extra]);
const writes = () =>
  proxy.requests
    .filter((q) => q.method !== 'GET')
    .map((q) => `${q.method} ${decodeURIComponent(decodeURIComponent(q.path))}`)
    .sort();
const stored = () =>
  emu.state
    .documents({ limit: -1 })
    .map((d) => decodeURIComponent(d.id))
    .sort();

describe('kis sync', () => {
  it('sends exactly the created, changed and deleted documents; a rename is a delete plus a create', async () => {
    const first = await sync('--prune');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      '3 to create, 0 to update, 0 unchanged, 0 to delete (of 0 owned)',
    );
    expect(writes()).toEqual(Array(3).fill('POST /api/svc-api/ingestion'));

    proxy.requests.length = 0;
    const again = await sync('--prune');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      '0 to create, 0 to update, 3 unchanged, 0 to delete (of 3 owned)',
    );
    expect(writes()).toEqual([]);

    await writeFile(join(work, 'docs/b.txt'), 'beta, edited');
    await rm(join(work, 'docs/sub/c.md'));
    await rename(join(work, 'docs/a.md'), join(work, 'docs/renamed.md'));
    await writeFile(join(work, 'docs/new.md'), 'new');
    proxy.requests.length = 0;
    // 2 of the 3 owned documents go: over the default --max-delete 50%
    expect((await sync('--prune', '--dry-run')).code).toBe(2);
    const dry = await sync('--prune', '--dry-run', '--max-delete', '2');
    expect(dry.code).toBe(0);
    expect(writes()).toEqual([]);
    const r = await run([
      '--json',
      'sync',
      'docs',
      '--cc-pair',
      String(pair),
      '--prune',
      '--max-delete',
      '2',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const plan = jsonLines(r.stdout).find((l) => typeof l.plan === 'object');
    expect(plan?.plan).toEqual({ create: 2, update: 1, unchanged: 0, delete: 2, owned: 3 });
    expect(writes()).toEqual([
      'DELETE /api/svc-api/ingestion/docs/a.md',
      'DELETE /api/svc-api/ingestion/docs/sub/c.md',
      'POST /api/svc-api/ingestion',
      'POST /api/svc-api/ingestion',
      'POST /api/svc-api/ingestion',
    ]);
    // the pair equals the folder; the other source's document is untouched
    expect(stored()).toEqual(['docs/b.txt', 'docs/new.md', 'docs/renamed.md', 'other/x.txt']);
    expect(emu.state.document('docs%2Fb.txt')?.sections[0]).toMatchObject({ text: 'beta, edited' });
  });

  it('without --prune, reports what is gone and deletes nothing', async () => {
    await sync();
    await rm(join(work, 'docs/b.txt'));
    proxy.requests.length = 0;
    const r = await sync();
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      '1 owned document(s) are gone from the source; --prune deletes them',
    );
    expect(writes()).toEqual([]);
    expect(stored()).toContain('docs/b.txt');
  });

  it('an emptied folder does not wipe the pair: refused (exit 2) unless --force', async () => {
    await sync();
    await rm(join(work, 'docs'), { recursive: true });
    await writeTree(work, { 'docs/.keep': '' });
    proxy.requests.length = 0;
    const refused = await sync('--prune');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /refusing to sync: the prune would delete 3 of the 3 documents .*--force/,
    );
    expect(writes()).toEqual([]);
    const forced = await sync('--prune', '--force');
    expect(forced.code).toBe(0);
    expect(stored()).toEqual(['other/x.txt']);
  });

  it('a lost journal re-sends without duplicates and still prunes', async () => {
    await sync();
    await rm(join(work, '.kis'), { recursive: true });
    await rm(join(work, 'docs/b.txt'));
    proxy.requests.length = 0;
    const r = await sync('--prune');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('0 to create, 2 to update, 0 unchanged, 1 to delete (of 3 owned)');
    expect(stored()).toEqual(['docs/a.md', 'docs/sub/c.md', 'other/x.txt']);
  });

  it('a JSONL export syncs under --namespace; a prune of JSONL needs one', async () => {
    const line = (id: string, text: string) =>
      JSON.stringify({ id, semantic_identifier: id, sections: [{ text }], metadata: {} });
    await writeFile(join(work, 'export.jsonl'), `${line('1', 'one')}\n${line('2', 'two')}\n`);
    const noNamespace = await run(['sync', 'export.jsonl', '--cc-pair', String(pair), '--prune']);
    expect(noNamespace.code).toBe(2);
    expect(noNamespace.stderr).toContain('give --namespace PREFIX');
    const args = [
      'sync',
      'export.jsonl',
      '--cc-pair',
      String(pair),
      '--namespace',
      'crm/',
      '--prune',
    ];
    expect((await run(args)).code).toBe(0);
    await writeFile(join(work, 'export.jsonl'), `${line('2', 'two')}\n`);
    expect((await run(args)).code).toBe(0);
    expect(stored()).toEqual(['crm/2', 'other/x.txt']);
    const empty = await run([...args.slice(0, 4), '--namespace', '']);
    expect([empty.code, empty.stderr.trim()]).toEqual([
      2,
      'error: --namespace: expected a non-empty prefix',
    ]);
  });

  it("sends nothing after a kis ingest of the same folder: both keep the pair's journal", async () => {
    const ingest = await run(['--json', 'ingest', 'docs', '--cc-pair', String(pair)]);
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(jsonLines(ingest.stdout).at(-1)?.summary).toMatchObject({ created: 3 });
    const before = emu.stats().ingestion.requests;
    proxy.requests.length = 0;
    const r = await sync('--prune');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('0 to create, 0 to update, 3 unchanged, 0 to delete (of 3 owned)');
    expect(emu.stats().ingestion.requests - before).toBe(0);
    expect(writes()).toEqual([]);
    // and the other way round: an ingest after a sync skips what the sync stored
    await writeFile(join(work, 'docs/b.txt'), 'beta, edited');
    expect((await sync()).code).toBe(0);
    const again = await run(['--json', 'ingest', 'docs', '--cc-pair', String(pair)]);
    expect(jsonLines(again.stdout).at(-1)?.summary).toMatchObject({
      created: 0,
      updated: 0,
      skipped: 3,
    });
  });

  it("owns the ids under the folder's name wherever it runs; prunes need no --namespace", async () => {
    expect((await sync()).code).toBe(0);
    await rm(join(work, 'docs/b.txt'));
    const inside = await kis(
      ['--json', 'sync', '.', '--cc-pair', String(pair), '--prune', '--max-delete', '1'],
      { env, cwd: join(work, 'docs') },
    );
    expect(inside.code, inside.stderr).toBe(0);
    const plan = jsonLines(inside.stdout).find((l) => typeof l.plan === 'object')?.plan;
    // the same ids as from the parent: none created; the journal kept in docs/.kis is new
    expect(plan).toMatchObject({ create: 0, delete: 1, owned: 3 });
    expect(stored()).toEqual(['docs/a.md', 'docs/sub/c.md', 'other/x.txt']);
  });

  it('without --prune, JSONL and the base directory sync and own nothing', async () => {
    const doc = JSON.stringify({
      id: 'e1',
      semantic_identifier: 'E1',
      sections: [{ text: 'x' }],
      metadata: {},
    });
    await writeFile(join(work, 'export.jsonl'), `${doc}\n`);
    const jsonl = await run(['sync', 'export.jsonl', '--cc-pair', String(pair)]);
    expect([jsonl.code, jsonl.stderr]).toEqual([0, expect.not.stringContaining('error')]);
    expect(jsonl.stdout).toContain(
      '1 to create, 0 to update, 0 unchanged, 0 to delete (of 0 owned)',
    );
    // the base directory (--base-dir .: ids relative to it) as a PATH owns every id;
    // other/x.txt came from kis ingest, whose journal this sync shares: unchanged
    const base = await run(['sync', '.', '--base-dir', '.', '--cc-pair', String(pair)]);
    expect(base.code).toBe(0);
    expect(base.stdout).toContain(
      '3 to create, 0 to update, 1 unchanged, 0 to delete (of 0 owned)',
    );
    expect(stored()).toEqual(['docs/a.md', 'docs/b.txt', 'docs/sub/c.md', 'e1', 'other/x.txt']);
    const prune = await run(['sync', '.', '--base-dir', '.', '--cc-pair', String(pair), '--prune']);
    expect([prune.code, prune.stderr]).toEqual([
      2,
      'error: sync --prune: the base directory owns every id; give --namespace PREFIX (the ids this sync owns)\n',
    ]);
  });

  it('--watch syncs each change as it settles: an edit, a deletion, a rename; Ctrl-C ends it', async () => {
    const child = spawnKis(
      ['sync', 'docs', '--cc-pair', String(pair), '--prune', '--watch', '--max-delete', '3'],
      {
        env,
        cwd: work,
      },
    );
    const done = collect(child);
    let stderr = '';
    child.stderr?.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    const until = async (what: string, test: () => boolean) => {
      for (let i = 0; i < 400 && !test(); i++) await new Promise((r) => setTimeout(r, 25));
      if (!test()) throw new Error(`--watch: timed out waiting for ${what}; stderr: ${stderr}`);
    };
    await until('the watcher', () => stderr.includes('watching 1 path(s)'));
    expect(stored()).toEqual(['docs/a.md', 'docs/b.txt', 'docs/sub/c.md', 'other/x.txt']);
    await appendFile(join(work, 'docs/b.txt'), ', saved again');
    await until('the edit', () =>
      JSON.stringify(emu.state.document('docs%2Fb.txt')?.sections).includes('saved again'),
    );
    await rm(join(work, 'docs/sub/c.md'));
    await until('the deletion', () => !stored().includes('docs/sub/c.md'));
    await rename(join(work, 'docs/a.md'), join(work, 'docs/moved.md'));
    await until(
      'the rename',
      () => stored().includes('docs/moved.md') && !stored().includes('docs/a.md'),
    );
    child.kill('SIGINT');
    const r = await done;
    expect(r.code, r.stderr).toBe(0);
    expect(stored()).toEqual(['docs/b.txt', 'docs/moved.md', 'other/x.txt']);
  });
});

describe('kis sync killed in mid-run', () => {
  let slow: Emulator;
  beforeAll(async () => {
    slow = await emulator({ latencyMs: 40 });
  });
  afterAll(async () => {
    await slow?.close();
  });

  it('resumes: the next sync sends what was not acknowledged and the pair equals the folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kis-sync-kill-'));
    const files = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`docs/n${i}.txt`, `note ${i}`]),
    );
    await writeTree(dir, files);
    const slowEnv = { KIS_BASE_URL: slow.baseUrl, KIS_API_KEY: ADMIN_KEY };
    const config = '{"file_locations": []}';
    const made = await kis(
      ['--json', 'connector', 'create', '--name', 'k', '--source', 'file', '--config', config],
      {
        env: slowEnv,
        cwd: dir,
      },
    );
    const id = String(jsonLines(made.stdout)[0]?.cc_pair_id);
    const args = ['sync', 'docs', '--cc-pair', id, '--prune', '--journal', 'j.jsonl'];
    const child = spawnKis(args, { env: slowEnv, cwd: dir });
    const killed = collect(child);
    await waitForJournal(join(dir, 'j.jsonl'), 30, child);
    child.kill('SIGKILL');
    await killed;
    const before = slow.stats().ingestion.requests;
    const again = await kis(['--json', ...args], { env: slowEnv, cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    const lines = jsonLines(again.stdout);
    const plan = lines.find((l) => typeof l.plan === 'object')?.plan as { unchanged: number };
    const summary = lines.find((l) => l.summary)?.summary as { retried: number; hedged: number };
    expect(plan.unchanged).toBeGreaterThanOrEqual(30);
    // one send per document not proven unchanged, plus the retries and hedges the run reports
    // (a loaded machine can make an answer slow enough to hedge)
    expect(slow.stats().ingestion.requests - before).toBe(
      200 - plan.unchanged + summary.retried + summary.hedged,
    );
    const stored = slow.state
      .documents({ limit: -1 })
      .map((d) => decodeURIComponent(d.id))
      .sort();
    expect(stored).toEqual(Object.keys(files).sort());
    await rm(dir, { recursive: true, force: true });
  });
});
