// `pnpm bench:faults`: `kis ingest` with its default flags (plus --journal) against emulators
// playing faults, small servers and an outage, each figure a ratio measured side by side in this
// run. Prints the figures and writes bench/results/faults.json; never passes or fails on time.
// KIS_FAULTS_DOCS (default 30,000) is the fault mix's size (and its clean run's).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '@kis/emulator';
import { writeDocuments } from './lib/documents.mjs';
import { judged, verdict } from './lib/targets.mjs';
import { provenance } from './provenance.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KIS = join(root, 'packages/cli/bin/kis.js');
const KEY = 'kis-bench-faults-admin-key-0123456789';
// the mix the target is set for: random 503s, 429s (Retry-After: 0) and resets, half after storing
const FAULT_MIX = '503=0.10,429=0.05,reset=0.01,reset-after-store=0.01';
// the same with 1 % of answers stalled for 30 s (hedges), reported beside it
const SLOW_MIX = `${FAULT_MIX},slow=0.01:30s`;
/** The server's service time per request in the fault mixes. */
const MIX_LATENCY_MS = 2;
// 30,000 documents: long enough that the adaptive limit's start and the retries' tail weigh little
const MIX_DOCS = Number(process.env.KIS_FAULTS_DOCS ?? 30_000);
const work = mkdtempSync(join(tmpdir(), 'kis-bench-faults-'));

/** One `kis --json ingest FILE --journal J [extra]` run; the summary is its last JSON line. */
function ingest(emulator, file, extra = []) {
  const journal = join(work, `journal-${Math.random().toString(36).slice(2)}.jsonl`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [KIS, '--json', 'ingest', file, '--journal', journal, ...extra],
      {
        env: { ...process.env, KIS_BASE_URL: emulator.baseUrl, KIS_API_KEY: KEY },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = out.trim().split('\n').filter(Boolean);
      const summary = JSON.parse(lines.at(-1) ?? '{}').summary ?? {};
      resolve({ code, elapsedMs: performance.now() - started, summary });
    });
  });
}

async function withEmulator(options, run) {
  const emulator = await startEmulator({ adminKey: KEY, seed: 1, ...options });
  try {
    return await run(emulator);
  } finally {
    await emulator.close();
  }
}

const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** (a) a fault mix against the same server without faults (one clean run for both mixes). */
async function faultMix(file, n, mix, clean) {
  const measure = (faults) =>
    withEmulator({ latencyMs: MIX_LATENCY_MS, ...(faults ? { faults } : {}) }, async (emulator) => {
      const r = await ingest(emulator, file);
      const stats = emulator.stats();
      return {
        exit_code: r.code,
        seconds: round(r.elapsedMs / 1000),
        docs_per_sec: round((n * 1000) / r.elapsedMs, 1),
        stored: emulator.state.documents({ limit: -1 }).length,
        failed: r.summary.failed,
        requests: stats.ingestion.requests,
        connections: stats.connections,
        concurrency: r.summary.concurrency,
        resent_after_ack: stats.ingestion.resent_after_ack,
        retried: r.summary.retried,
        hedged: r.summary.hedged,
        faults: stats.faults,
      };
    });
  clean ??= await measure(undefined);
  const faulty = await measure(mix);
  return {
    documents: n,
    faults: mix,
    latency_ms: MIX_LATENCY_MS,
    clean,
    faulty,
    throughput_ratio: round(faulty.docs_per_sec / clean.docs_per_sec),
    // POSTs for the same documents: what the faults cost in requests
    posts: { clean: clean.requests, faulty: faulty.requests },
  };
}

/** (b) a capacity-limited server: defaults and a ceiling of 64 against the best fixed level. */
async function capacity(n, capacityN, queue) {
  const file = writeDocuments(work, n, `cap${capacityN}`);
  const server = { latencyMs: 20, capacity: capacityN, queue };
  const measure = (extra) =>
    withEmulator(server, async (emulator) => {
      const r = await ingest(emulator, file, extra);
      const stored = emulator.state.documents({ limit: -1 }).length;
      return {
        flags: extra.join(' ') || '(defaults)',
        exit_code: r.code,
        goodput: round((stored * 1000) / r.elapsedMs, 1),
        failed: r.summary.failed,
        concurrency: r.summary.concurrency,
        refused_queue_full: emulator.stats().capacity?.refused_queue_full,
      };
    });
  const sweep = [];
  for (const level of [1, 2, 4, 8, 16, 32, 64]) {
    sweep.push(await measure(['--concurrency', String(level), '--fixed-concurrency']));
  }
  const best = sweep.reduce((a, b) => (b.goodput > a.goodput && b.failed === 0 ? b : a));
  const defaults = await measure([]);
  const ceiling64 = await measure(['--concurrency', '64']);
  return {
    server: `--latency-ms 20 --capacity ${capacityN} --queue ${queue}`,
    capacity: capacityN,
    documents: n,
    sweep,
    best_fixed: best,
    defaults,
    ceiling_64: ceiling64,
    defaults_ratio: round(defaults.goodput / best.goodput),
    ceiling_64_ratio: round(ceiling64.goodput / best.goodput),
  };
}

/** (c) a 20 s outage in the middle of the run. */
async function outage(n, seconds) {
  const file = writeDocuments(work, n, 'outage');
  return withEmulator({ latencyMs: 5 }, async (emulator) => {
    const run = ingest(emulator, file);
    while (emulator.stats().ingestion.acknowledged < n / 2) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await emulator.outage(seconds * 1000);
    const backAt = performance.now();
    const ackedAtReturn = emulator.stats().ingestion.acknowledged;
    while (emulator.stats().ingestion.acknowledged === ackedAtReturn) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const resumeSeconds = (performance.now() - backAt) / 1000;
    const r = await run;
    const stored = emulator.state.documents({ limit: -1 }).length;
    return {
      documents: n,
      outage_seconds: seconds,
      exit_code: r.code,
      stored,
      lost: n - stored,
      failed: r.summary.failed,
      seconds_to_next_ack: round(resumeSeconds),
      paused_ms: r.summary.paused_ms,
      resent_after_ack: emulator.stats().ingestion.resent_after_ack,
    };
  });
}

try {
  console.log(`kis ingest under faults (${cpus().length} CPU(s), Node ${process.version})`);
  const mixFile = writeDocuments(work, MIX_DOCS, 'mix');
  const a = await faultMix(mixFile, MIX_DOCS, FAULT_MIX);
  const slow = await faultMix(mixFile, MIX_DOCS, SLOW_MIX, a.clean);
  const targets = {
    // issue 29 restates it: at 2 ms the client's CPU is the limit, and every fault costs CPU
    fault_mix_vs_clean: judged(a.throughput_ratio, '>= 0.75'),
  };
  for (const [name, m, target] of [
    ['fault mix', a, ` (target ≥ 0.75, ${verdict(targets.fault_mix_vs_clean)})`],
    ['with slow answers', slow, ''],
  ]) {
    console.log(
      `(a) ${name}, ${m.documents} documents: ${m.faulty.docs_per_sec} vs ${m.clean.docs_per_sec} docs/s without faults → ${m.throughput_ratio}×${target}; ${m.posts.faulty} POSTs (${m.posts.clean} without faults); stored ${m.faulty.stored}/${m.documents}, re-sent after acknowledgement ${m.faulty.resent_after_ack} (resets after storing ${m.faulty.faults['reset-after-store'] ?? 0}), exit ${m.faulty.exit_code}; ${m.faulty.connections} connections (${m.clean.connections} without faults)`,
    );
  }
  const b = [await capacity(2000, 16, 16), await capacity(1000, 4, 4)];
  for (const s of b) {
    // the latency-bound figure: the server's capacity at 20 ms is the limit, not the client
    const tag = `capacity_${s.capacity}`;
    targets[`${tag}_defaults_vs_best_fixed`] = judged(s.defaults_ratio, '>= 0.9');
    targets[`${tag}_ceiling_64_vs_best_fixed`] = judged(s.ceiling_64_ratio, '>= 0.9');
    targets[`${tag}_failed`] = judged(s.defaults.failed + s.ceiling_64.failed, '= 0');
    console.log(
      `(b) ${s.server}: best fixed ${s.best_fixed.flags} ${s.best_fixed.goodput}/s; defaults ${s.defaults.goodput}/s → ${s.defaults_ratio}× (failed ${s.defaults.failed}); ceiling 64 ${s.ceiling_64.goodput}/s → ${s.ceiling_64_ratio}× (failed ${s.ceiling_64.failed}) (target ≥ 0.9, 0 failed: ${verdict(targets[`${tag}_defaults_vs_best_fixed`])}, ${verdict(targets[`${tag}_ceiling_64_vs_best_fixed`])}, ${verdict(targets[`${tag}_failed`])})`,
    );
  }
  const c = await outage(5000, 20);
  targets.outage_lost = judged(c.lost, '= 0');
  targets.outage_seconds_to_next_ack = judged(c.seconds_to_next_ack, '<= 5');
  console.log(
    `(c) 20 s outage mid-run: lost ${c.lost} (target 0, ${verdict(targets.outage_lost)}), ${c.seconds_to_next_ack} s from the server's return to the next acknowledged document (target ≤ 5, ${verdict(targets.outage_seconds_to_next_ack)}), exit ${c.exit_code}`,
  );
  const out = join(root, 'bench/results/faults.json');
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        benchmark: 'kis ingest with default flags under faults, capacity limits and an outage',
        ...provenance(),
        fault_mix: a,
        fault_mix_slow: slow,
        capacity: b,
        outage: c,
        targets,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`written to ${out}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
// stalled answers of the fault mix still sleep inside the closed emulators: do not wait for them
process.exit(0);
