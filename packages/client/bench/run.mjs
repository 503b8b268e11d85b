// Benchmarks of @kis/client on the built dist, against local sinks on 127.0.0.1 (in their own
// processes). Prints the figures and writes bench/results/client.json at the repository root.
//
//   pnpm --filter @kis/client bench            (KIS_BENCH_QUICK=1 for a shorter run)
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { judged, said } from '../../../bench/lib/targets.mjs';
import { provenance } from '../../../bench/provenance.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..', '..');
const quick = process.env.KIS_BENCH_QUICK === '1';

function startSink(delayMs) {
  const child = fork(join(here, 'sink.mjs'), {
    env: { ...process.env, KIS_SINK_DELAY_MS: String(delayMs) },
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ url: `http://127.0.0.1:${m.port}/api`, child }));
    child.once('error', reject);
  });
}

function phase(name, fast, slow) {
  const child = fork(join(here, 'phases.mjs'), [name, fast.url, slow.url]);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m));
    child.once(
      'exit',
      (code) => code !== 0 && reject(new Error(`phase ${name} exited with ${code}`)),
    );
  });
}

// 4. peak RSS while streaming generated documents, in a child process, at growing counts.
// mode `client` with no concurrency: ingestMany's default (adaptive, up to 64)
function rss(sink, mode = 'client', concurrency = undefined) {
  const total = quick ? 50_000 : 200_000;
  const checkpoints = quick ? [10_000, 25_000, 50_000] : [50_000, 100_000, 200_000];
  const child = fork(join(here, 'rss-child.mjs'), {
    env: {
      ...process.env,
      KIS_MODE: mode,
      KIS_CONCURRENCY: concurrency === undefined ? '' : String(concurrency),
      KIS_BASE_URL: sink.url,
      KIS_COUNT: String(total),
      KIS_CHECKPOINTS: checkpoints.join(','),
    },
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m));
    child.once('exit', (code) => code !== 0 && reject(new Error(`rss child exited with ${code}`)));
  });
}

const fast = await startSink(0);
const slow = await startSink(20);
try {
  console.log(
    `@kis/client benchmarks (node ${process.version}, ${os.cpus().length} CPUs${quick ? ', quick' : ''})`,
  );
  const o = await phase('overhead', fast, slow);
  console.log(
    `per-call CPU, ${o.calls} sequential calls: kis.ingestion.ingest ${o.cpu_ms.typed.toFixed(0)} ms vs ` +
      `bare undici request ${o.cpu_ms.bareUndici.toFixed(0)} ms → ${o.overhead_ratio_vs_bare_undici.toFixed(3)}×; ` +
      `vs bare fetch ${o.cpu_ms.bare.toFixed(0)} ms → ${o.overhead_ratio.toFixed(3)}×; ` +
      `vs bare node:http ${o.cpu_ms.bareHttp.toFixed(0)} ms → ${o.overhead_ratio_vs_bare_http.toFixed(3)}×`,
  );
  console.log(
    `  kis.api.POST ${o.overhead_ratio_raw_api.toFixed(3)}× bare fetch, ingestDocument with validation ` +
      `${o.overhead_ratio_ingest_document.toFixed(3)}×; the fetch-based core is ${o.overhead_ratio_fetch_sender.toFixed(3)}× bare fetch ` +
      `(${o.overhead_ratio_fetch_sender_vs_fetch_with_signal.toFixed(3)}× bare fetch with an AbortSignal, itself ${o.fetch_with_signal_ratio.toFixed(3)}× bare fetch)`,
  );
  // the target is on the medians of the interleaved pairs (`target`, when the figure has one)
  const throughputLine = (label, t, target) => {
    console.log(
      `${label}, fixed concurrency ${t.concurrency}: ingestMany ${t.docs_per_s_ingest_many.toFixed(0)} docs/s vs ` +
        `a raw undici request pool ${t.docs_per_s_raw_undici_pool.toFixed(0)} docs/s → best ${t.ratio_vs_raw_undici_pool.toFixed(3)}×, ` +
        `medians of ${t.rounds} pairs ${t.median_ratio_vs_raw_undici_pool.toFixed(3)}×` +
        `${target ? ` (${said(target)})` : ''}; CPU ${t.cpu_ratio_vs_raw_undici_pool.toFixed(3)}× the pool's`,
    );
    console.log(
      `  vs a raw fetch pool ${t.docs_per_s_raw_fetch_pool.toFixed(0)} docs/s → ${t.ratio_vs_raw_fetch_pool.toFixed(3)}×, ` +
        `a raw node:http pool ${t.docs_per_s_raw_http_pool.toFixed(0)} docs/s → ${t.ratio_vs_raw_http_pool.toFixed(3)}×; ` +
        `the fetch-based core ${t.docs_per_s_ingest_many_fetch_sender.toFixed(0)} docs/s → ` +
        `${t.ratio_fetch_sender_vs_raw_fetch_pool.toFixed(3)}× the raw fetch pool`,
    );
  };
  const t0 = await phase('throughput0', fast, slow);
  // issue 29 restates the aim at 0 ms: at least 0.8x the pool (missed is reported, not a failure)
  const target0 = judged(t0.median_ratio_vs_raw_undici_pool, '>= 0.8');
  throughputLine('0 ms sink', t0, target0);
  const t20 = await phase('throughput20', fast, slow);
  throughputLine('20 ms sink', t20);
  const seq = await phase('sequential', fast, slow);
  console.log(
    `20 ms sink: ingestMany (16) ${seq.ingest_many_docs_per_s.toFixed(0)} docs/s vs sequential ingestDocument ` +
      `${seq.sequential_docs_per_s.toFixed(1)} docs/s → ${seq.ratio.toFixed(2)}×`,
  );
  // as before the adaptive engine: fixed concurrency 8 (the headline) and 16, each beside a bare
  // undici request pool of the same concurrency; then ingestMany's defaults (adaptive, up to 64)
  const mem = await rss(fast, 'client', 8);
  const memUndici = await rss(fast, 'raw-undici', 8);
  const mem16 = await rss(fast, 'client', 16);
  const memUndici16 = await rss(fast, 'raw-undici', 16);
  const memDefault = await rss(fast);
  const cps = Object.entries(mem.at)
    .map(([k, v]) => `${Number(k) / 1000}k: ${v.rssMb.toFixed(0)} MB`)
    .join(', ');
  console.log(
    `streaming ${mem.summary.created} documents (fixed concurrency 8): peak RSS ${mem.peakMb.toFixed(1)} MB ` +
      `(${cps}) in ${mem.seconds.toFixed(1)} s; a bare undici request pool: ${memUndici.peakMb.toFixed(1)} MB`,
  );
  console.log(
    `  fixed concurrency 16: ${mem16.peakMb.toFixed(1)} MB (bare undici request pool: ${memUndici16.peakMb.toFixed(1)} MB); ` +
      `ingestMany's defaults (adaptive, ${memDefault.concurrency.min}–${memDefault.concurrency.max}): ${memDefault.peakMb.toFixed(1)} MB`,
  );
  const result = {
    ...provenance(),
    // ingestMany at a fixed concurrency of 16 against a pool of 16 bare undici `request` calls:
    // the ratio of the medians of 7 interleaved pairs (the target's figure at 0 ms), and the best
    ingest_vs_raw_undici_0ms_median: t0.median_ratio_vs_raw_undici_pool,
    ingest_vs_raw_undici_20ms_median: t20.median_ratio_vs_raw_undici_pool,
    ingest_vs_raw_undici_0ms: t0.ratio_vs_raw_undici_pool,
    ingest_vs_raw_undici_20ms: t20.ratio_vs_raw_undici_pool,
    // CPU per sequential call: kis.ingestion.ingest over a bare undici `request`
    overhead_ratio_vs_bare_undici: o.overhead_ratio_vs_bare_undici,
    ingest_vs_sequential_20ms: seq.ratio,
    // streaming 200,000 documents at a fixed concurrency of 8, of 16, and with ingestMany's defaults
    peak_rss_mb: mem.peakMb,
    peak_rss_mb_raw_undici_pool: memUndici.peakMb,
    peak_rss_mb_16: mem16.peakMb,
    peak_rss_mb_raw_undici_pool_16: memUndici16.peakMb,
    peak_rss_mb_adaptive: memDefault.peakMb,
    // the same figures against bare fetch and bare node:http, and for the fetch-based core
    overhead_ratio_vs_bare_fetch: o.overhead_ratio,
    overhead_ratio_vs_bare_http: o.overhead_ratio_vs_bare_http,
    overhead_ratio_fetch_sender_vs_bare_fetch: o.overhead_ratio_fetch_sender,
    ingest_vs_raw_fetch_0ms: t0.ratio_vs_raw_fetch_pool,
    ingest_vs_raw_fetch_20ms: t20.ratio_vs_raw_fetch_pool,
    ingest_vs_raw_http_0ms: t0.ratio_vs_raw_http_pool,
    ingest_vs_raw_http_20ms: t20.ratio_vs_raw_http_pool,
    ingest_fetch_sender_vs_raw_fetch_0ms: t0.ratio_fetch_sender_vs_raw_fetch_pool,
    ingest_fetch_sender_vs_raw_fetch_20ms: t20.ratio_fetch_sender_vs_raw_fetch_pool,
    targets: {
      ingest_vs_raw_undici_0ms_median: target0,
      ingest_vs_raw_undici_20ms: judged(t20.ratio_vs_raw_undici_pool, '>= 0.95'),
      ingest_vs_sequential_20ms: judged(seq.ratio, '>= 14'),
      // fixed concurrency 8; flat is read from details.rss.fixed_8.checkpoints
      peak_rss_mb: judged(mem.peakMb, '< 150'),
    },
    details: {
      node: process.version,
      cpus: os.cpus().length,
      quick,
      sender: 'undici (Agent + dispatcher.dispatch)',
      overhead: o,
      throughput_0ms: t0,
      throughput_20ms: t20,
      sequential_20ms: seq,
      rss: {
        documents: mem.summary.created,
        fixed_8: { peak_mb: mem.peakMb, checkpoints: mem.at, seconds: mem.seconds },
        raw_undici_pool_8: {
          peak_mb: memUndici.peakMb,
          checkpoints: memUndici.at,
          seconds: memUndici.seconds,
        },
        fixed_16: { peak_mb: mem16.peakMb, checkpoints: mem16.at, seconds: mem16.seconds },
        raw_undici_pool_16: {
          peak_mb: memUndici16.peakMb,
          checkpoints: memUndici16.at,
          seconds: memUndici16.seconds,
        },
        adaptive: {
          concurrency: memDefault.concurrency,
          peak_mb: memDefault.peakMb,
          checkpoints: memDefault.at,
          seconds: memDefault.seconds,
        },
      },
    },
  };
  const out = join(repoRoot, 'bench', 'results', 'client.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${out}`);
} finally {
  fast.child.kill();
  slow.child.kill();
}
