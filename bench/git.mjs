// `pnpm bench:git`: the git source (@kis/node) on a repository of 10^4 files built here, synced
// into the emulator as `kis sync git+file://…` will run it: a first sync, then a sync after a
// commit that changes 10 files and deletes 2 (exactly 10 sent, 2 deleted), its time before the
// first ingestion request against walking and hashing the same tree in Node (target ≤ 0.1×).
// Prints the figures and writes bench/results/git.json; never fails on time. `--files=N` for a
// smaller run.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKisClient } from '@kis/client';
import { startEmulator } from '@kis/emulator';
import { gitSource, openJournal, sync } from '@kis/node';
import { judged, said } from './lib/targets.mjs';
import { provenance } from './provenance.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KEY = 'kis-bench-git-admin-key-0123456789';
const FILES = Number(process.argv.find((a) => a.startsWith('--files='))?.slice(8) ?? 10_000);
const CHANGED = 10;
const DELETED = 2;
const ROUNDS = 3;
const work = mkdtempSync(join(tmpdir(), 'kis-bench-git-'));
const repo = join(work, 'handbook');
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const git = (...args) =>
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 26,
  });
const pathOf = (i) => join(repo, `d${String(i % 100).padStart(2, '0')}`, `note-${i}.md`);
const write = (i, tag = '') =>
  writeFileSync(pathOf(i), `# Note ${i}\n\nBody of note ${i}${tag}. ${'Some text. '.repeat(20)}\n`);

/** Walking the checkout and hashing every file: the floor a sync before its first request is judged against. */
function walkAndHash() {
  const started = performance.now();
  let n = 0;
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      if (e.name === '.git') continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else {
        createHash('sha256').update(readFileSync(p)).digest('hex');
        n++;
      }
    }
  };
  walk(repo);
  return { ms: performance.now() - started, files: n };
}

/**
 * One sync of the repository (the CLI later: `kis sync git+file://REPO --prune`), timed from its
 * start to its first ingestion request and to its end.
 */
async function gitSync(baseUrl, ccPairId, journalPath) {
  const started = performance.now();
  let firstIngestion;
  const kis = createKisClient({
    baseUrl,
    apiKey: KEY,
    logLevel: 'off',
    fetch: (input, init) => {
      const request = new Request(input, init);
      if (
        firstIngestion === undefined &&
        request.method === 'POST' &&
        request.url.endsWith('/ingestion')
      ) {
        firstIngestion = performance.now();
      }
      return fetch(request);
    },
  });
  const journal = openJournal(journalPath);
  const source = gitSource({ repository: repo, state: journal });
  const session = await sync(kis, source, { ccPairId, owns: source.owns, journal, prune: true });
  const summary = await session.run().done();
  const cursorKept = await source.finish(summary);
  source.close();
  journal.close();
  return {
    mode: source.run?.mode,
    planned: {
      create: session.plan.create.length,
      update: session.plan.update.length,
      delete: session.plan.delete.length,
    },
    created: summary.created,
    updated: summary.updated,
    deleted: summary.deleted,
    failed: summary.failed,
    cursor_kept: cursorKept,
    ms_before_first_request: firstIngestion === undefined ? null : firstIngestion - started,
    ms: performance.now() - started,
  };
}

const emulator = await startEmulator({ adminKey: KEY, dbPath: ':memory:' });
try {
  console.log(`git source: a repository of ${FILES} files (Node ${process.version})`);
  mkdirSync(repo);
  git('init', '-q');
  for (let d = 0; d < 100; d++)
    mkdirSync(join(repo, `d${String(d).padStart(2, '0')}`), { recursive: true });
  for (let i = 0; i < FILES; i++) write(i);
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
  const kis = createKisClient({ baseUrl: emulator.baseUrl, apiKey: KEY, logLevel: 'off' });
  const { ccPairId } = await kis.setupConnector({
    connector: {
      name: 'handbook',
      source: 'file',
      input_type: 'load_state',
      access_type: 'public',
      connector_specific_config: { file_locations: [] },
    },
  });
  const journalPath = join(work, 'journal.jsonl');
  const first = await gitSync(emulator.baseUrl, ccPairId, journalPath);
  console.log(
    `first sync (${first.mode}): ${first.created} created in ${round(first.ms / 1000)} s`,
  );

  const step = Math.floor(FILES / (CHANGED + DELETED + 1));
  for (let k = 0; k < CHANGED; k++) write(k * step, ' (edited)');
  for (let k = 0; k < DELETED; k++) unlinkSync(pathOf((CHANGED + k) * step));
  git('add', '-A');
  git('commit', '-q', '-m', 'second');
  const baselines = Array.from({ length: ROUNDS }, walkAndHash);
  const before = emulator.stats().ingestion.requests;
  const second = await gitSync(emulator.baseUrl, ccPairId, journalPath);
  const sent = emulator.stats().ingestion.requests - before;
  const baseMs = median(baselines.map((b) => b.ms));
  const ratio = round(second.ms_before_first_request / baseMs, 3);
  const targets = {
    sent: judged(sent, `= ${CHANGED}`),
    deleted: judged(second.deleted, `= ${DELETED}`),
    before_first_request_vs_walk_hash: judged(ratio, '<= 0.1'),
  };
  console.log(
    `sync after ${CHANGED} changed and ${DELETED} deleted (${second.mode}): ${sent} sent (${said(targets.sent)}), ${second.deleted} deleted (${said(targets.deleted)}) in ${round(second.ms)} ms`,
  );
  console.log(
    `  before the first request: ${round(second.ms_before_first_request)} ms vs ${round(baseMs)} ms to walk and hash ${baselines[0].files} files → ${ratio}× (${said(targets.before_first_request_vs_walk_hash)})`,
  );
  const results = {
    ...provenance(),
    files: FILES,
    first,
    second: { ...second, sent },
    walk_hash_ms: baselines.map((b) => round(b.ms)),
    targets,
    load_average_after: loadavg().map((n) => round(n)),
  };
  const out = join(root, 'bench/results/git.json');
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${out}`);
} finally {
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
