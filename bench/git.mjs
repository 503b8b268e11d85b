// `pnpm bench:git`: `kis sync git+file://REPO#main --prune` with default flags, on a repository of
// 10^4 files built here, into the emulator: a first sync, then a sync after a commit that changes
// 10 files and deletes 2 (exactly 10 sent, 2 deleted), its time before the first ingestion
// request against walking and hashing the same tree in Node (target ≤ 0.1×), with where that time
// goes: the process's start, each request before the first ingestion (a recording proxy in front
// of the emulator), and the git commands a run makes, timed alone. Prints the figures and writes
// bench/results/git.json; never fails on time. `--files=N` for a smaller run.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKisClient } from '@kis/client';
import { startEmulator } from '@kis/emulator';
import { openJournal } from '@kis/node';
import { KIS, runKis } from './lib/kis-process.mjs';
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

/** A command's wall time, median of ROUNDS, in ms. */
function timed(command, args, cwd = repo) {
  const runs = Array.from({ length: ROUNDS }, () => {
    const started = performance.now();
    execFileSync(command, args, { cwd, stdio: 'ignore', maxBuffer: 1 << 26 });
    return performance.now() - started;
  });
  return round(median(runs), 1);
}

/** Opening the pair's journal (its index of acknowledgements), as the run does first: median, ms. */
function journalOpenMs() {
  const file = readdirSync(join(work, '.kis', 'sync')).find((f) => f.endsWith('.jsonl'));
  const runs = Array.from({ length: ROUNDS }, () => {
    const started = performance.now();
    openJournal(join(work, '.kis', 'sync', file)).close();
    return performance.now() - started;
  });
  return round(median(runs), 1);
}

/** A proxy in front of the emulator that notes when each request arrives and is answered. */
async function recordingProxy(target) {
  const requests = [];
  const server = createServer(async (req, res) => {
    const entry = { method: req.method, path: req.url, at: performance.now(), done: undefined };
    requests.push(entry);
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    delete headers['content-length'];
    const body = Buffer.concat(chunks);
    const answer = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    const out = Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
    });
    res.end(out, () => {
      entry.done = performance.now();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * One `kis sync … --prune` through the proxy, timed from its spawn: to each request before the
 * first ingestion (what the run waits on) and to its end.
 */
async function kisSync(proxy, pair) {
  proxy.requests.length = 0;
  let started = 0;
  const run = await runKis(
    ['sync', `git+file://${repo}#main`, '--cc-pair', String(pair), '--prune'],
    {
      env: { KIS_BASE_URL: `${proxy.url}/api`, KIS_API_KEY: KEY },
      cwd: work,
      onSpawn: (at) => {
        started = at;
      },
    },
  );
  if (run.code !== 0) throw new Error(`kis sync exited with ${run.code}: ${run.stderr}`);
  const first = proxy.requests.find((r) => r.method === 'POST' && r.path.endsWith('/ingestion'));
  const before = proxy.requests
    .filter((r) => first === undefined || r.at <= first.at)
    .map((r) => ({
      request: `${r.method} ${r.path.replace(/\?.*$/, '')}`,
      arrived_ms: round(r.at - started, 1),
      answered_ms: r.done === undefined ? null : round(r.done - started, 1),
    }));
  return {
    summary: run.summary,
    deleted: run.lines.filter((l) => l.action === 'delete').length,
    ms: round(run.seconds * 1000, 1),
    ms_before_first_request: first === undefined ? null : round(first.at - started, 1),
    requests_before_first_ingestion: before,
  };
}

const emulator = await startEmulator({ adminKey: KEY, dbPath: ':memory:' });
const proxy = await recordingProxy(emulator.baseUrl.replace(/\/api$/, ''));
try {
  console.log(`kis sync of a git repository of ${FILES} files (Node ${process.version})`);
  mkdirSync(repo);
  git('init', '-q', '-b', 'main');
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
  const first = await kisSync(proxy, ccPairId);
  console.log(
    `first sync: ${first.summary.created} created in ${round(first.ms / 1000)} s (exit 0)`,
  );

  const step = Math.floor(FILES / (CHANGED + DELETED + 1));
  const before = git('rev-parse', 'HEAD').toString().trim();
  for (let k = 0; k < CHANGED; k++) write(k * step, ' (edited)');
  for (let k = 0; k < DELETED; k++) unlinkSync(pathOf((CHANGED + k) * step));
  git('add', '-A');
  git('commit', '-q', '-m', 'second');
  const baselines = Array.from({ length: ROUNDS }, walkAndHash);
  const sentBefore = emulator.stats().ingestion.requests;
  const second = await kisSync(proxy, ccPairId);
  const sent = emulator.stats().ingestion.requests - sentBefore;
  const baseMs = median(baselines.map((b) => b.ms));
  const ratio = round(second.ms_before_first_request / baseMs, 3);
  // where the time before the first request goes: the process's start, and the git commands a
  // run makes (each a process), timed alone
  const parts = {
    node_start_ms: timed(process.execPath, ['-e', '0'], work),
    kis_version_ms: timed(process.execPath, [KIS, '--version'], work),
    git_log_ref_ms: timed('git', ['log', '-1', '--format=%H %cI %D', 'main^{commit}', '--']),
    git_merge_base_ms: timed('git', ['merge-base', '--is-ancestor', before, 'HEAD']),
    git_diff_tree_ms: timed('git', ['diff-tree', '-r', '-M', '-z', before, 'HEAD']),
    git_ls_tree_ms: timed('git', ['ls-tree', '-r', '-z', '--long', 'HEAD']),
    journal_open_ms: journalOpenMs(),
  };
  const targets = {
    sent: judged(sent, `= ${CHANGED}`),
    deleted: judged(second.deleted, `= ${DELETED}`),
    before_first_request_vs_walk_hash: judged(ratio, '<= 0.1'),
  };
  console.log(
    `sync after ${CHANGED} changed and ${DELETED} deleted: ${sent} sent (${said(targets.sent)}), ${second.deleted} deleted (${said(targets.deleted)}) in ${round(second.ms)} ms`,
  );
  console.log(
    `  before the first request: ${second.ms_before_first_request} ms vs ${round(baseMs)} ms to walk and hash ${baselines[0].files} files → ${ratio}× (${said(targets.before_first_request_vs_walk_hash)})`,
  );
  console.log('  where it goes (ms from the spawn):');
  for (const r of second.requests_before_first_ingestion) {
    console.log(
      `    ${String(r.arrived_ms).padStart(8)} → ${String(r.answered_ms).padStart(8)}  ${r.request}`,
    );
  }
  console.log(
    `  alone: node -e 0 ${parts.node_start_ms} ms, kis --version ${parts.kis_version_ms} ms; opening the journal ${parts.journal_open_ms} ms; git log ${parts.git_log_ref_ms} ms, merge-base ${parts.git_merge_base_ms} ms, diff-tree ${parts.git_diff_tree_ms} ms, ls-tree ${parts.git_ls_tree_ms} ms`,
  );
  const results = {
    ...provenance(),
    files: FILES,
    first,
    second: { ...second, sent },
    walk_hash_ms: baselines.map((b) => round(b.ms)),
    parts,
    targets,
    load_average_after: loadavg().map((n) => round(n)),
  };
  const out = join(root, 'bench/results/git.json');
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${out}`);
} finally {
  await proxy.close();
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
