// `pnpm bench:sync`: `kis sync` with its default flags (plus --prune) on a 10,000-file folder
// against the emulator: a first sync, a second after 1% of the files changed, 0.5% deleted and
// 0.5% added, and a sync with no change, timed against walking and hashing the same files in a
// plain Node process. Prints the figures and writes bench/results/sync.json; never fails on time.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '@kis/emulator';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KIS = join(root, 'packages/cli/bin/kis.js');
const KEY = 'kis-bench-sync-admin-key-0123456789';
const FILES = 10_000;
const work = mkdtempSync(join(tmpdir(), 'kis-bench-sync-'));
const docs = join(work, 'docs');

const pathOf = (i) => join(docs, `d${String(i % 100).padStart(2, '0')}`, `note-${i}.md`);
const write = (i, tag = '') =>
  writeFileSync(pathOf(i), `# Note ${i}\n\nBody of note ${i}${tag}. ${'Some text. '.repeat(20)}\n`);

function kis(args, env) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KIS, '--json', ...args], {
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
      const lines = out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
      resolve({ code, ms: performance.now() - started, lines, err });
    });
  });
}

/** Walking and hashing the folder in a plain Node process: the floor a sync is judged against. */
function walkAndHash() {
  const script = `
    const { readdirSync, readFileSync } = require('node:fs');
    const { createHash } = require('node:crypto');
    const { join } = require('node:path');
    let n = 0;
    const walk = (dir) => { for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name < b.name ? -1 : 1)) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p); else { createHash('sha256').update(readFileSync(p)).digest('hex'); n++; } } };
    walk(${JSON.stringify(docs)});
    if (n === 0) process.exit(1);`;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ms: performance.now() - started }));
  });
}

const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const count = (lines, action, status) =>
  lines.filter((l) => l.action === action && (status === undefined || l.status === status)).length;

const emulator = await startEmulator({ adminKey: KEY, dbPath: ':memory:' });
try {
  const env = { KIS_BASE_URL: emulator.baseUrl, KIS_API_KEY: KEY };
  for (let d = 0; d < 100; d++) mkdirSync(join(docs, `d${String(d).padStart(2, '0')}`), { recursive: true });
  for (let i = 0; i < FILES; i++) write(i);
  const created = await kis(
    ['connector', 'create', '--name', 'bench', '--source', 'file', '--config', '{"file_locations": []}'],
    env,
  );
  const pair = String(created.lines[0].cc_pair_id);
  const sync = () => kis(['sync', 'docs', '--cc-pair', pair, '--prune'], env);
  const ingestionRequests = () => emulator.stats().ingestion.requests;
  console.log(`kis sync of ${FILES} files (${cpus().length} CPU(s), Node ${process.version})`);

  let before = ingestionRequests();
  const first = await sync();
  const firstSent = ingestionRequests() - before;
  console.log(`first sync: ${round(first.ms / 1000)} s, ${firstSent} ingestion requests, exit ${first.code}`);

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

  const stored = new Set(emulator.state.documents({ limit: -1 }).map((d) => decodeURIComponent(d.id)));
  const expectedIds = new Set();
  for (let i = 0; i < FILES + removed; i++) {
    const deleted = i < FILES && i % 97 === 13 && (i - 13) / 97 < removed;
    if (!deleted) expectedIds.add(pathOf(i).slice(work.length + 1));
  }
  const missing = [...expectedIds].filter((id) => !stored.has(id)).length;
  const extra = [...stored].filter((id) => !expectedIds.has(id)).length;

  const runs = [];
  for (let i = 0; i < 3; i++) {
    before = ingestionRequests();
    const s = await sync();
    const base = await walkAndHash();
    runs.push({ sync_ms: s.ms, sent: ingestionRequests() - before, walk_hash_ms: base.ms, exit: s.code });
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const syncMs = median(runs.map((r) => r.sync_ms));
  const baseMs = median(runs.map((r) => r.walk_hash_ms));
  console.log(
    `no-change sync: ${round(syncMs / 1000)} s vs ${round(baseMs / 1000)} s to walk and hash in Node → ${round(syncMs / baseMs)}× (target ≤ 1.5), ${runs.map((r) => r.sent).join('/')} ingestion requests`,
  );
  console.log(`pair equals the folder: ${missing} missing, ${extra} extra`);

  const out = join(root, 'bench/results/sync.json');
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        benchmark: 'kis sync --prune of a 10,000-file folder against the emulator',
        node: process.version,
        cpus: cpus().length,
        date: new Date().toISOString(),
        files: FILES,
        first: { seconds: round(first.ms / 1000), ingestion_requests: firstSent, exit_code: first.code },
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
            ingestion_requests: r.sent,
          })),
          median_sync_seconds: round(syncMs / 1000),
          median_walk_and_hash_seconds: round(baseMs / 1000),
          ratio: round(syncMs / baseMs),
        },
        pair_vs_folder: { missing, extra },
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
