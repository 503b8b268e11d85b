// `pnpm bench:sync`: `kis sync` with its default flags (plus --prune) against the emulator. On a
// 10,000-file folder: a first sync, a second after 1% of the files changed, 0.5% deleted and 0.5%
// added, and syncs with no change, timed against walking and hashing the same files in a plain
// Node process, each split into what it costs before its first file and per file. On a
// 100,000-file folder: a first sync and syncs with no change, per file. Prints the figures and
// writes bench/results/sync.json (with the commit and date); never fails on time.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '@kis/emulator';
import { provenance } from './provenance.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KIS = join(root, 'packages/cli/bin/kis.js');
const KEY = 'kis-bench-sync-admin-key-0123456789';
const FILES = 10_000;
/** The large folder: per-file figures without the command's start-up. */
const LARGE = 100_000;
/** Rounds of the no-change timings, of which the medians are taken (the machine's noise is ±10–30%). */
const ROUNDS = 15;
const LARGE_ROUNDS = 5;
const work = mkdtempSync(join(tmpdir(), 'kis-bench-sync-'));
const docs = join(work, 'docs');

const pathOf = (i, folder = docs) =>
  join(folder, `d${String(i % 100).padStart(2, '0')}`, `note-${i}.md`);
const write = (i, tag = '', folder = docs) =>
  writeFileSync(
    pathOf(i, folder),
    `# Note ${i}\n\nBody of note ${i}${tag}. ${'Some text. '.repeat(20)}\n`,
  );

/**
 * Runs `kis` (with `--json` unless `json` is false: the timed no-change syncs use the default
 * output, as people run it); resolves with its exit code, wall time and JSON lines.
 */
function kis(args, env, { json = true } = {}) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KIS, ...(json ? ['--json'] : []), ...args], {
      cwd: work,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = json
        ? out
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l))
        : [];
      resolve({ code, ms: performance.now() - started, lines, err });
    });
  });
}

/** Runs a Node script; resolves with its wall time and the in-process time it prints (ms). */
function node(args) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: work,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, ms: performance.now() - started, inner: Number(out.trim()) }),
    );
  });
}

/** Walking and hashing the folder in a plain Node process: the floor a sync is judged against. */
function walkAndHash(folder = docs) {
  return node([
    '-e',
    `
    const { readdirSync, readFileSync } = require('node:fs');
    const { createHash } = require('node:crypto');
    const { join } = require('node:path');
    const started = performance.now();
    let n = 0;
    const walk = (dir) => { for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name < b.name ? -1 : 1)) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p); else { createHash('sha256').update(readFileSync(p)).digest('hex'); n++; } } };
    walk(${JSON.stringify(folder)});
    if (n === 0) process.exit(1);
    console.log(performance.now() - started);`,
  ]);
}

/**
 * The same no-change sync through the client alone (`kis.sync` over `folderSource`, with the
 * CLI's journal), timed inside its process from the client's creation to the run's end: the
 * engine without the command line's start-up.
 */
function engineSync(baseUrl, pair) {
  return node([
    '--input-type=module',
    '-e',
    `
    import { readdirSync } from 'node:fs';
    import { createKisClient } from ${JSON.stringify(import.meta.resolve('@kis/client'))};
    import { folderSource, openJournal, sync } from ${JSON.stringify(import.meta.resolve('@kis/node'))};
    const started = performance.now();
    const kis = createKisClient({ baseUrl: ${JSON.stringify(baseUrl)}, apiKey: ${JSON.stringify(KEY)} });
    const name = readdirSync('.kis/sync').find((f) => f.endsWith('-pair-${pair}.jsonl'));
    const journal = openJournal('.kis/sync/' + name);
    const source = folderSource(['docs']);
    const session = await sync(kis, source, { ccPairId: ${pair}, owns: source.owns, journal, prune: true });
    const summary = await session.run().done();
    journal.close();
    if (summary.unchanged !== ${FILES}) process.exit(1);
    console.log(performance.now() - started);
    process.exit(0);`,
  ]);
}

/** An empty Node process: what the baseline costs before its first file. */
function nodeAlone() {
  return node(['-e', '0']);
}

const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const count = (lines, action, status) =>
  lines.filter((l) => l.action === action && (status === undefined || l.status === status)).length;

const emulator = await startEmulator({ adminKey: KEY, dbPath: ':memory:' });
try {
  const env = { KIS_BASE_URL: emulator.baseUrl, KIS_API_KEY: KEY };
  for (let d = 0; d < 100; d++)
    mkdirSync(join(docs, `d${String(d).padStart(2, '0')}`), { recursive: true });
  for (let i = 0; i < FILES; i++) write(i);
  const created = await kis(
    [
      'connector',
      'create',
      '--name',
      'bench',
      '--source',
      'file',
      '--config',
      '{"file_locations": []}',
    ],
    env,
  );
  const pair = String(created.lines[0].cc_pair_id);
  const sync = (options) => kis(['sync', 'docs', '--cc-pair', pair, '--prune'], env, options);
  const ingestionRequests = () => emulator.stats().ingestion.requests;
  console.log(`kis sync of ${FILES} files (${cpus().length} CPU(s), Node ${process.version})`);

  let before = ingestionRequests();
  const first = await sync();
  const firstSent = ingestionRequests() - before;
  console.log(
    `first sync: ${round(first.ms / 1000)} s, ${firstSent} ingestion requests, exit ${first.code}`,
  );

  // 1% changed, 0.5% deleted, 0.5% added
  const changed = FILES / 100;
  const removed = FILES / 200;
  for (let i = 0; i < changed; i++) write(i * 97, ' (edited)');
  for (let i = 0; i < removed; i++) unlinkSync(pathOf(i * 97 + 13));
  for (let i = 0; i < removed; i++) write(FILES + i);
  before = ingestionRequests();
  const second = await sync();
  const secondSent = ingestionRequests() - before;
  const deletes = count(second.lines, 'delete', 'deleted');
  const expectedSends = changed + removed;
  console.log(
    `second sync: ${round(second.ms / 1000)} s, ${secondSent} ingestion requests for ${changed} changed + ${removed} added (target exactly ${expectedSends}), ${deletes} deletions for ${removed} deleted, exit ${second.code}`,
  );

  const stored = new Set(
    emulator.state.documents({ limit: -1 }).map((d) => decodeURIComponent(d.id)),
  );
  const expectedIds = new Set();
  for (let i = 0; i < FILES + removed; i++) {
    const deleted = i < FILES && i % 97 === 13 && (i - 13) / 97 < removed;
    if (!deleted) expectedIds.add(pathOf(i).slice(work.length + 1));
  }
  const missing = [...expectedIds].filter((id) => !stored.has(id)).length;
  const extra = [...stored].filter((id) => !expectedIds.has(id)).length;

  // The same sync of a one-file folder (its own pair): what a `kis sync` costs before its first
  // file (Node, modules, the HTTP client, the listing), against an empty Node process.
  mkdirSync(join(work, 'one'));
  writeFileSync(join(work, 'one', 'a.md'), '# A\n');
  const onePair = String(
    (
      await kis(
        [
          'connector',
          'create',
          '--name',
          'one',
          '--source',
          'file',
          '--config',
          '{"file_locations": []}',
        ],
        env,
      )
    ).lines[0].cc_pair_id,
  );
  const syncOne = (options) => kis(['sync', 'one', '--cc-pair', onePair, '--prune'], env, options);
  await syncOne();

  const runs = [];
  for (let i = 0; i < ROUNDS; i++) {
    before = ingestionRequests();
    const s = await sync({ json: false });
    const sent = ingestionRequests() - before;
    const base = await walkAndHash();
    const one = await syncOne({ json: false });
    const empty = await nodeAlone();
    const engine = await engineSync(emulator.baseUrl, pair);
    runs.push({
      sync_ms: s.ms,
      sent,
      walk_hash_ms: base.ms,
      walk_hash_inner_ms: base.inner,
      engine_inner_ms: engine.code === 0 ? engine.inner : Number.NaN,
      one_ms: one.ms,
      node_ms: empty.ms,
      exit: s.code,
    });
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const syncMs = median(runs.map((r) => r.sync_ms));
  const baseMs = median(runs.map((r) => r.walk_hash_ms));
  const oneMs = median(runs.map((r) => r.one_ms));
  const nodeMs = median(runs.map((r) => r.node_ms));
  const engineMs = median(runs.map((r) => r.engine_inner_ms));
  const baseInnerMs = median(runs.map((r) => r.walk_hash_inner_ms));
  const perFile = (ms, fixed) => round(((ms - fixed) * 1000) / FILES, 1);
  console.log(
    `no-change sync: ${round(syncMs / 1000)} s vs ${round(baseMs / 1000)} s to walk and hash in Node → ${round(syncMs / baseMs)}× whole process (reported, not a target: Node's start-up is in it), ${runs.map((r) => r.sent).join('/')} ingestion requests`,
  );
  console.log(
    `  before the first file: ${round(oneMs / 1000)} s for kis sync (a one-file folder) vs ${round(nodeMs / 1000)} s for an empty Node process; per file: ${perFile(syncMs, oneMs)} µs vs ${perFile(baseMs, nodeMs)} µs`,
  );
  console.log(
    `  inside the process: kis.sync ${round(engineMs / 1000)} s vs ${round(baseInnerMs / 1000)} s to walk and hash → ${round(engineMs / baseInnerMs)}×`,
  );
  console.log(`pair equals the folder: ${missing} missing, ${extra} extra`);

  // the large folder: per file, the command's start-up left out (a one-file sync's time)
  const large = join(work, 'large');
  for (let d = 0; d < 100; d++)
    mkdirSync(join(large, `d${String(d).padStart(2, '0')}`), { recursive: true });
  for (let i = 0; i < LARGE; i++) write(i, '', large);
  const largePair = String(
    (
      await kis(
        [
          'connector',
          'create',
          '--name',
          'large',
          '--source',
          'file',
          '--config',
          '{"file_locations": []}',
        ],
        env,
      )
    ).lines[0].cc_pair_id,
  );
  const syncLarge = (options) =>
    kis(['sync', 'large', '--cc-pair', largePair, '--prune'], env, options);
  before = ingestionRequests();
  const firstLarge = await syncLarge();
  const firstLargeSent = ingestionRequests() - before;
  console.log(
    `${LARGE} files, first sync: ${round(firstLarge.ms / 1000)} s, ${firstLargeSent} ingestion requests, exit ${firstLarge.code}`,
  );
  const largeRuns = [];
  for (let i = 0; i < LARGE_ROUNDS; i++) {
    before = ingestionRequests();
    const s = await syncLarge({ json: false });
    const sent = ingestionRequests() - before;
    const base = await walkAndHash(large);
    const one = await syncOne({ json: false });
    const empty = await nodeAlone();
    largeRuns.push({
      sync_ms: s.ms,
      walk_hash_ms: base.ms,
      one_ms: one.ms,
      node_ms: empty.ms,
      sent,
      exit: s.code,
    });
  }
  const lSync = median(largeRuns.map((r) => r.sync_ms));
  const lBase = median(largeRuns.map((r) => r.walk_hash_ms));
  const lOne = median(largeRuns.map((r) => r.one_ms));
  const lNode = median(largeRuns.map((r) => r.node_ms));
  const lPerSync = round(((lSync - lOne) * 1000) / LARGE, 1);
  const lPerBase = round(((lBase - lNode) * 1000) / LARGE, 1);
  console.log(
    `${LARGE} files, no change: ${round(lSync / 1000)} s vs ${round(lBase / 1000)} s to walk and hash; per file ${lPerSync} µs vs ${lPerBase} µs → ${round(lPerSync / lPerBase)}× (target ≤ 1.3); start-up apart: ${round(lOne / 1000)} s (one-file sync) vs ${round(lNode / 1000)} s (empty Node); ${largeRuns.map((r) => r.sent).join('/')} ingestion requests`,
  );

  const out = join(root, 'bench/results/sync.json');
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        benchmark:
          'kis sync --prune of a 10,000-file and a 100,000-file folder against the emulator',
        ...provenance(),
        files: FILES,
        first: {
          seconds: round(first.ms / 1000),
          ingestion_requests: firstSent,
          exit_code: first.code,
        },
        second: {
          changed,
          deleted: removed,
          added: removed,
          seconds: round(second.ms / 1000),
          ingestion_requests: secondSent,
          expected_ingestion_requests: expectedSends,
          other_ingestion_requests: secondSent - expectedSends,
          deletions: deletes,
          exit_code: second.code,
        },
        no_change: {
          runs: runs.map((r) => ({
            sync_seconds: round(r.sync_ms / 1000),
            walk_and_hash_seconds: round(r.walk_hash_ms / 1000),
            one_file_sync_seconds: round(r.one_ms / 1000),
            empty_node_seconds: round(r.node_ms / 1000),
            kis_sync_inside_seconds: round(r.engine_inner_ms / 1000),
            walk_and_hash_inside_seconds: round(r.walk_hash_inner_ms / 1000),
            ingestion_requests: r.sent,
            exit_code: r.exit,
          })),
          median_sync_seconds: round(syncMs / 1000),
          median_walk_and_hash_seconds: round(baseMs / 1000),
          ratio: round(syncMs / baseMs),
          before_first_file: {
            one_file_sync_seconds: round(oneMs / 1000),
            empty_node_seconds: round(nodeMs / 1000),
          },
          per_file_microseconds: {
            sync: perFile(syncMs, oneMs),
            walk_and_hash: perFile(baseMs, nodeMs),
          },
          inside_the_process: {
            kis_sync_seconds: round(engineMs / 1000),
            walk_and_hash_seconds: round(baseInnerMs / 1000),
            ratio: round(engineMs / baseInnerMs),
          },
        },
        pair_vs_folder: { missing, extra },
        large: {
          files: LARGE,
          first: {
            seconds: round(firstLarge.ms / 1000),
            ingestion_requests: firstLargeSent,
            exit_code: firstLarge.code,
          },
          no_change: {
            runs: largeRuns.map((r) => ({
              sync_seconds: round(r.sync_ms / 1000),
              walk_and_hash_seconds: round(r.walk_hash_ms / 1000),
              one_file_sync_seconds: round(r.one_ms / 1000),
              empty_node_seconds: round(r.node_ms / 1000),
              ingestion_requests: r.sent,
              exit_code: r.exit,
            })),
            per_file_microseconds: { sync: lPerSync, walk_and_hash: lPerBase },
            per_file_ratio: round(lPerSync / lPerBase),
            per_file_target: '<= 1.3',
            start_up_seconds: {
              one_file_sync: round(lOne / 1000),
              empty_node: round(lNode / 1000),
            },
          },
        },
      },
      null,
      2,
    )}\n`,
  );
  console.log(`written to ${out}`);
} finally {
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
}
