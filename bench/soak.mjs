// `pnpm bench:soak`: `kis ingest` with its default flags and --journal over a generated JSONL of
// a million documents against a local server answering in 2 ms (bench/soak-server.mjs): the
// process's peak RSS, its RSS at 20 % and at the end, the rate in each tenth, the journal's size
// per document. Then a run of 500,000 killed with SIGKILL at about 60 % and run again with the
// same journal: the time to its first new request, documents sent again after their
// acknowledgement, documents lost. Prints the figures and writes bench/results/soak.json;
// never passes or fails. KIS_SOAK_DOCS changes the first run's size (the second is half of it).
// RSS is read from /proc (Linux).
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provenance } from './provenance.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KIS = join(root, 'packages/cli/bin/kis.js');
const TOTAL = Number(process.env.KIS_SOAK_DOCS ?? 1_000_000);
const KILLED = Math.floor(TOTAL / 2);
const work = mkdtempSync(join(tmpdir(), 'kis-bench-soak-'));
const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;

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

/** The resident set of a process, from /proc (0 once it is gone). */
function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
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
 * One `kis ingest FILE --journal J` run, its RSS sampled every 100 ms (and the stored count
 * alongside, to place the samples); `killAt` (documents this run stored) sends it SIGKILL.
 */
async function ingest(server, file, journal, { total, killAt } = {}) {
  // the server keeps what earlier runs stored: count this run's documents from here
  const before = (await server.stats()).stored;
  const started = Date.now();
  const child = spawn(process.execPath, [KIS, 'ingest', file, '--journal', journal], {
    env: { ...process.env, KIS_BASE_URL: server.baseUrl, KIS_API_KEY: 'soak-key' },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const samples = [];
  let killed = false;
  const timer = setInterval(async () => {
    const rss = rssOf(child.pid);
    const stored = (await server.stats()).stored - before;
    samples.push({ at: Date.now() - started, rss, stored });
    if (killAt !== undefined && !killed && stored >= killAt) {
      killed = true;
      child.kill('SIGKILL');
    }
  }, 100);
  const [code, signal] = await once(child, 'exit');
  clearInterval(timer);
  const peak = Math.max(...samples.map((s) => s.rss));
  const at = (share) =>
    samples.find((s) => s.stored >= share * (total ?? Number.POSITIVE_INFINITY))?.rss ?? 0;
  return { code, signal, seconds: (Date.now() - started) / 1000, started, samples, peak, at };
}

/** Stored documents per second in each tenth, from the server's marks. */
function tenths(started, marks) {
  let from = started;
  return marks.map((mark) => {
    const rate = marks.length > 0 ? (TOTAL / 10 / (mark - from)) * 1000 : 0;
    from = mark;
    return Math.round(rate);
  });
}

const server = await startServer();
const measured = provenance();
const { commit } = measured;
try {
  console.log(`kis ingest soak (node ${process.version}, ${cpus().length} CPUs, commit ${commit})`);
  const file = await documents(TOTAL, 'soak');
  const journal = join(work, 'soak-journal.jsonl');
  await server.phase(TOTAL);
  const run = await ingest(server, file, journal, { total: TOTAL });
  const stats = await server.stats();
  const rates = tenths(run.started, stats.marks);
  const journalBytes = statSync(journal).size;
  const first = {
    documents: TOTAL,
    exit_code: run.code,
    seconds: Math.round(run.seconds),
    docs_per_sec: Math.round(TOTAL / run.seconds),
    stored: stats.stored,
    peak_rss_mb: mb(run.peak),
    rss_at_20_percent_mb: mb(run.at(0.2)),
    rss_at_end_mb: mb(run.at(0.99)),
    rate_per_tenth: rates,
    last_tenth_vs_first: Math.round(((rates.at(-1) ?? 0) / (rates[0] || 1)) * 100) / 100,
    journal_bytes_per_document: Math.round(journalBytes / TOTAL),
  };
  console.log(
    `${TOTAL} documents: ${first.docs_per_sec}/s, peak RSS ${first.peak_rss_mb} MB (at 20 %: ${first.rss_at_20_percent_mb} MB, at the end: ${first.rss_at_end_mb} MB); per tenth ${rates.join(', ')} docs/s (last/first ${first.last_tenth_vs_first}); journal ${first.journal_bytes_per_document} B a document; exit ${run.code}`,
  );

  // a run killed at about 60 %, then resumed with the same journal
  const killedFile = await documents(KILLED, 'resume');
  const resumeJournal = join(work, 'resume-journal.jsonl');
  await server.phase(KILLED);
  const cut = await ingest(server, killedFile, resumeJournal, {
    total: KILLED,
    killAt: Math.floor(KILLED * 0.6),
  });
  const atKill = await server.stats();
  await server.phase(KILLED);
  const again = await ingest(server, killedFile, resumeJournal, { total: KILLED });
  const after = await server.stats();
  const resume = {
    documents: KILLED,
    killed_by: cut.signal,
    stored_at_kill: atKill.stored - TOTAL,
    seconds_to_first_new_request:
      after.firstRequestAt === 0
        ? null
        : Math.round((after.firstRequestAt - again.started) / 100) / 10,
    resent_after_acknowledgement: after.resent,
    lost: KILLED - (after.stored - TOTAL),
    exit_code: again.code,
    peak_rss_mb: mb(again.peak),
  };
  console.log(
    `killed at ${resume.stored_at_kill} of ${KILLED} (SIGKILL); re-run: first new request after ${resume.seconds_to_first_new_request} s, ${resume.resent_after_acknowledgement} sent again after their acknowledgement, ${resume.lost} lost, exit ${again.code}`,
  );
  const { writeFileSync, mkdirSync } = await import('node:fs');
  const out = join(root, 'bench/results/soak.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        ...measured,
        server: 'bench/soak-server.mjs, 2 ms service time',
        command: 'kis ingest FILE --journal J (default flags)',
        run: first,
        kill_and_resume: resume,
        targets: {
          peak_rss_mb: '< 150',
          last_tenth_vs_first: '>= 0.9',
          seconds_to_first_new_request: '<= 10',
          resent_after_acknowledgement: '<= the concurrency ceiling (64)',
          lost: 0,
        },
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
