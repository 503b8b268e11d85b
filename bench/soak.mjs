// `pnpm bench:soak`: `kis ingest` with its default flags and --journal over a generated JSONL of
// a million documents against a local server answering in 2 ms (bench/soak-server.mjs), beside a
// bare undici pool sending the same stream to the same server (bench/soak-pool.mjs, 64 in
// flight, the CLI's default ceiling): each process's peak RSS, its RSS at 20 % and at the end, the
// rate in each tenth, the journal's size per document; KIS_SOAK_RUNS (default 3) pairs of runs,
// each run's figures and the worst across runs. Then a run of 500,000 killed with SIGKILL at about
// 60 % and run again with the same journal (once): the time to its first new request, documents
// sent again after their acknowledgement, documents lost. Prints the figures and writes
// bench/results/soak.json; never passes or fails. KIS_SOAK_DOCS changes the runs' size (the
// killed run is half of it). RSS is read from /proc (Linux) for both processes alike.
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { judged, verdict } from './lib/targets.mjs';
import { provenance } from './provenance.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KIS = join(root, 'packages/cli/bin/kis.js');
const POOL = join(root, 'bench/soak-pool.mjs');
/** The bare pool's requests in flight: the CLI's default ceiling (`--concurrency` 64). */
const POOL_CONCURRENCY = 64;
const TOTAL = Number(process.env.KIS_SOAK_DOCS ?? 1_000_000);
const RUNS = Math.max(1, Number(process.env.KIS_SOAK_RUNS ?? 3));
const KILLED = Math.floor(TOTAL / 2);
const work = mkdtempSync(join(tmpdir(), 'kis-bench-soak-'));
const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** A JSONL file of `n` documents, about 400 bytes each, written as a stream. */
async function documents(n, tag) {
  const file = join(work, `${tag}.jsonl`);
  const out = createWriteStream(file);
  for (let i = 0; i < n; i++) {
    const line = `${JSON.stringify({
      id: `${tag}/${i}`,
      semantic_identifier: `Soak document ${i}`,
      sections: [{ text: `The text of generated document number ${i}. `.repeat(6) }],
      source: 'file',
      metadata: { n: String(i) },
    })}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return file;
}

/**
 * A process's resident set now (VmRSS) and its high-water mark (VmHWM), from /proc; zeros once it
 * is gone. The mark catches peaks between two samples.
 */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

function startServer() {
  const server = fork(join(root, 'bench/soak-server.mjs'), { env: process.env });
  const ask = (message, type) =>
    new Promise((resolve) => {
      const on = (m) => {
        if (m.type !== type) return;
        server.off('message', on);
        resolve(m);
      };
      server.on('message', on);
      server.send(message);
    });
  return new Promise((resolve) =>
    server.once('message', ({ port }) =>
      resolve({
        baseUrl: `http://127.0.0.1:${port}/api`,
        phase: (total) => ask({ type: 'phase', total }, 'ok'),
        stats: () => ask({ type: 'stats' }, 'stats'),
        close: () => server.kill(),
      }),
    ),
  );
}

/**
 * One sending process (`args` after node), its memory sampled from /proc every 100 ms with the
 * count the server answered in this phase alongside (to place the samples); `killAt` (answers in
 * this phase) sends it SIGKILL. The same for the CLI and the bare pool, so their figures compare.
 */
async function sampled(server, args, { total, killAt } = {}) {
  const started = Date.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, KIS_BASE_URL: server.baseUrl, KIS_API_KEY: 'soak-key' },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const samples = [];
  let killed = false;
  const timer = setInterval(async () => {
    const memory = memoryOf(child.pid);
    const { answered } = await server.stats();
    if (memory.rss > 0) samples.push({ at: Date.now() - started, ...memory, answered });
    if (killAt !== undefined && !killed && answered >= killAt) {
      killed = true;
      child.kill('SIGKILL');
    }
  }, 100);
  const [code, signal] = await once(child, 'exit');
  clearInterval(timer);
  const peak = Math.max(0, ...samples.map((s) => Math.max(s.hwm, s.rss)));
  // a short run may end between two samples: its last sample is then its end
  const at = (share) =>
    (
      samples.find((s) => s.answered >= share * (total ?? Number.POSITIVE_INFINITY)) ??
      samples.at(-1)
    )?.rss ?? 0;
  return { code, signal, seconds: (Date.now() - started) / 1000, started, samples, peak, at };
}

/** Answered documents per second in each tenth, from the server's marks. */
function tenths(started, marks, total) {
  let from = started;
  return marks.map((mark) => {
    const rate = (total / 10 / (mark - from)) * 1000;
    from = mark;
    return Math.round(rate);
  });
}

/** One process's run over the whole file, in a phase of its own: rate, RSS, flatness. */
async function measureOne(server, args) {
  await server.phase(TOTAL);
  const run = await sampled(server, args, { total: TOTAL });
  const stats = await server.stats();
  const rates = tenths(run.started, stats.marks, TOTAL);
  const at20 = run.at(0.2);
  const atEnd = run.at(0.99);
  return {
    exit_code: run.code,
    seconds: round(run.seconds, 1),
    docs_per_sec: Math.round(TOTAL / run.seconds),
    answered: stats.answered,
    peak_rss_mb: mb(run.peak),
    rss_at_20_percent_mb: mb(at20),
    rss_at_end_mb: mb(atEnd),
    rss_end_vs_20_percent: at20 > 0 ? round(atEnd / at20) : null,
    rate_per_tenth: rates,
    last_tenth_vs_first: round((rates.at(-1) ?? 0) / (rates[0] || 1)),
  };
}

/**
 * Run `n` of KIS_SOAK_RUNS: `kis ingest` (fresh journal) and the bare pool over the same file.
 * Their order alternates, so drift (the server's heap, the machine's load) falls on both alike.
 */
async function pairedRun(server, file, n) {
  const journal = join(work, `soak-journal-${n}.jsonl`);
  const cli = () => measureOne(server, [KIS, 'ingest', file, '--journal', journal]);
  const pool = () => measureOne(server, [POOL, server.baseUrl, file, String(POOL_CONCURRENCY)]);
  const cliFirst = n % 2 === 1;
  const first = cliFirst ? await cli() : await pool();
  const second = cliFirst ? await pool() : await cli();
  const [kis, bare] = cliFirst ? [first, second] : [second, first];
  kis.journal_bytes_per_document = Math.round(statSync(journal).size / TOTAL);
  rmSync(journal, { force: true });
  return {
    run: n,
    order: cliFirst ? 'kis ingest, then the bare pool' : 'the bare pool, then kis ingest',
    kis_ingest: kis,
    bare_pool: bare,
    peak_rss_vs_bare_pool: round(kis.peak_rss_mb / bare.peak_rss_mb),
  };
}

/** A run of KILLED documents killed at about 60 %, then resumed with the same journal. */
async function killAndResume(server) {
  const file = await documents(KILLED, 'resume');
  const journal = join(work, 'resume-journal.jsonl');
  const args = [KIS, 'ingest', file, '--journal', journal];
  // the server keeps what the soak runs stored: count this part's documents from here
  const base = (await server.stats()).stored;
  await server.phase(KILLED);
  const cut = await sampled(server, args, { total: KILLED, killAt: Math.floor(KILLED * 0.6) });
  const atKill = await server.stats();
  await server.phase(KILLED);
  const again = await sampled(server, args, { total: KILLED });
  const after = await server.stats();
  return {
    documents: KILLED,
    killed_by: cut.signal,
    stored_at_kill: atKill.stored - base,
    seconds_to_first_new_request:
      after.firstRequestAt === 0
        ? null
        : Math.round((after.firstRequestAt - again.started) / 100) / 10,
    resent_after_acknowledgement: after.resent,
    lost: KILLED - (after.stored - base),
    exit_code: again.code,
    peak_rss_mb: mb(again.peak),
  };
}

/** The worst of the runs' figures (`pick`: Math.max or Math.min); null if a run has none. */
const worstOf = (figures, pick) =>
  figures.some((f) => typeof f !== 'number' || !Number.isFinite(f)) ? null : pick(...figures);

const printRun = (r) => {
  const line = (name, f) =>
    `${name} ${f.docs_per_sec}/s, peak RSS ${f.peak_rss_mb} MB (at 20 %: ${f.rss_at_20_percent_mb} MB, at the end: ${f.rss_at_end_mb} MB, ${f.rss_end_vs_20_percent}×); per tenth ${f.rate_per_tenth.join(', ')} docs/s (last/first ${f.last_tenth_vs_first}); exit ${f.exit_code}`;
  console.log(`run ${r.run}/${RUNS} (${r.order}):`);
  console.log(
    `  ${line('kis ingest', r.kis_ingest)}; journal ${r.kis_ingest.journal_bytes_per_document} B a document`,
  );
  console.log(`  ${line(`bare undici pool (${POOL_CONCURRENCY})`, r.bare_pool)}`);
  console.log(`  peak RSS kis ingest ÷ bare pool: ${r.peak_rss_vs_bare_pool}`);
};

const server = await startServer();
const measured = provenance();
try {
  console.log(
    `kis ingest soak (node ${process.version}, ${cpus().length} CPUs, commit ${measured.commit}): ${TOTAL} documents, ${RUNS} runs`,
  );
  const file = await documents(TOTAL, 'soak');
  const runs = [];
  for (let n = 1; n <= RUNS; n++) {
    runs.push(await pairedRun(server, file, n));
    printRun(runs.at(-1));
  }
  rmSync(file, { force: true });
  // the targets hold over every run: the worst run is the figure
  const worst = {
    peak_rss_vs_bare_pool: worstOf(
      runs.map((r) => r.peak_rss_vs_bare_pool),
      Math.max,
    ),
    rss_end_vs_20_percent: worstOf(
      runs.map((r) => r.kis_ingest.rss_end_vs_20_percent),
      Math.max,
    ),
    last_tenth_vs_first: worstOf(
      runs.map((r) => r.kis_ingest.last_tenth_vs_first),
      Math.min,
    ),
  };
  const resume = await killAndResume(server);
  console.log(
    `killed at ${resume.stored_at_kill} of ${KILLED} (SIGKILL); re-run: first new request after ${resume.seconds_to_first_new_request} s, ${resume.resent_after_acknowledgement} sent again after their acknowledgement, ${resume.lost} lost, exit ${resume.exit_code}`,
  );
  const targets = {
    peak_rss_vs_bare_pool: judged(worst.peak_rss_vs_bare_pool, '<= 1.5'),
    rss_end_vs_20_percent: judged(worst.rss_end_vs_20_percent, '<= 1.1'),
    last_tenth_vs_first: judged(worst.last_tenth_vs_first, '>= 0.9'),
    seconds_to_first_new_request: judged(resume.seconds_to_first_new_request, '<= 10'),
    // at most what the killed run had in flight: the concurrency ceiling
    resent_after_acknowledgement: judged(resume.resent_after_acknowledgement, '<= 64'),
    lost: judged(resume.lost, '= 0'),
  };
  console.log(
    `worst of ${RUNS} runs: peak RSS ${worst.peak_rss_vs_bare_pool}× the bare pool (target ≤ 1.5, ${verdict(targets.peak_rss_vs_bare_pool)}); RSS at the end ${worst.rss_end_vs_20_percent}× at 20 % (target ≤ 1.1, ${verdict(targets.rss_end_vs_20_percent)}); last tenth ${worst.last_tenth_vs_first}× the first (target ≥ 0.9, ${verdict(targets.last_tenth_vs_first)})`,
  );
  const out = join(root, 'bench/results/soak.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        ...measured,
        server: 'bench/soak-server.mjs, 2 ms service time',
        command: 'kis ingest FILE --journal J (default flags)',
        baseline: `bench/soak-pool.mjs: a bare undici Pool, ${POOL_CONCURRENCY} requests in flight, the same file`,
        rss: 'VmRSS and VmHWM from /proc/<pid>/status every 100 ms, both processes; peak = VmHWM',
        documents: TOTAL,
        runs,
        worst,
        kill_and_resume: resume,
        targets,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`wrote ${out}`);
} finally {
  server.close();
  rmSync(work, { recursive: true, force: true });
}
