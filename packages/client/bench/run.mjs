// Benchmarks of @kis/client on the built dist, against local sinks on 127.0.0.1 (in their own
// processes). Prints the figures and writes bench/results/client.json at the repository root.
//
//   pnpm --filter @kis/client bench            (KIS_BENCH_QUICK=1 for a shorter run)
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

// 4. peak RSS while streaming generated documents, in a child process, at growing counts
function rss(sink, mode = 'client', concurrency = 8) {
  const total = quick ? 50_000 : 200_000;
  const checkpoints = quick ? [10_000, 25_000, 50_000] : [50_000, 100_000, 200_000];
  const child = fork(join(here, 'rss-child.mjs'), {
    env: {
      ...process.env,
      KIS_MODE: mode,
      KIS_CONCURRENCY: String(concurrency),
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
    `per-call CPU, ${o.calls} sequential calls: bare fetch ${o.cpu_ms.bare.toFixed(0)} ms, ` +
      `kis.ingestion.ingest ${o.cpu_ms.typed.toFixed(0)} ms → overhead ${o.overhead_ratio.toFixed(3)}× ` +
      `(kis.api.POST ${o.overhead_ratio_raw_api.toFixed(3)}×, ingestDocument with validation ${o.overhead_ratio_ingest_document.toFixed(3)}×)`,
  );
  console.log(
    `  same transport: kis.ingestion.ingest is ${o.overhead_ratio_vs_bare_http.toFixed(3)}× bare node:http ` +
      `(${o.cpu_ms.bareHttp.toFixed(0)} ms); the fetch-based core is ${o.overhead_ratio_fetch_sender.toFixed(3)}× bare fetch ` +
      `(${o.overhead_ratio_fetch_sender_vs_fetch_with_signal.toFixed(3)}× bare fetch with an AbortSignal, itself ${o.fetch_with_signal_ratio.toFixed(3)}× bare fetch)`,
  );
  const throughputLine = (label, t) => {
    console.log(
      `${label}, concurrency 16: ingestMany ${t.docs_per_s_ingest_many.toFixed(0)} docs/s vs raw fetch pool ` +
        `${t.docs_per_s_raw_pool.toFixed(0)} docs/s → ${t.ratio.toFixed(3)}× ` +
        `(vs a raw pool with a per-request time-out signal: ${t.ratio_vs_raw_pool_with_timeout.toFixed(3)}×)`,
    );
    console.log(
      `  same transport: vs a raw node:http pool ${t.docs_per_s_raw_http_pool.toFixed(0)} docs/s → ` +
        `${t.ratio_vs_raw_http_pool.toFixed(3)}×; the fetch-based core ${t.docs_per_s_ingest_many_fetch_sender.toFixed(0)} docs/s → ` +
        `${t.ratio_fetch_sender.toFixed(3)}× the raw fetch pool`,
    );
  };
  const t0 = await phase('throughput0', fast, slow);
  throughputLine('0 ms sink', t0);
  const t20 = await phase('throughput20', fast, slow);
  throughputLine('20 ms sink', t20);
  const seq = await phase('sequential', fast, slow);
  console.log(
    `20 ms sink: ingestMany (16) ${seq.ingest_many_docs_per_s.toFixed(0)} docs/s vs sequential ingestDocument ` +
      `${seq.sequential_docs_per_s.toFixed(1)} docs/s → ${seq.ratio.toFixed(2)}×`,
  );
  const mem = await rss(fast); // ingestMany's default concurrency (8)
  const memRaw = await rss(fast, 'raw');
  const mem16 = await rss(fast, 'client', 16);
  const memRaw16 = await rss(fast, 'raw', 16);
  const cps = Object.entries(mem.at)
    .map(([k, v]) => `${Number(k) / 1000}k: ${v.rssMb.toFixed(0)} MB`)
    .join(', ');
  console.log(
    `streaming ${mem.summary.created} documents (concurrency 8): peak RSS ${mem.peakMb.toFixed(1)} MB (${cps}) ` +
      `in ${mem.seconds.toFixed(1)} s; a bare fetch pool over the same stream: ${memRaw.peakMb.toFixed(1)} MB`,
  );
  console.log(
    `  at concurrency 16: ${mem16.peakMb.toFixed(1)} MB; bare fetch pool: ${memRaw16.peakMb.toFixed(1)} MB`,
  );
  const result = {
    overhead_ratio: o.overhead_ratio,
    ingest_vs_raw_0ms: t0.ratio,
    ingest_vs_raw_20ms: t20.ratio,
    ingest_vs_sequential_20ms: seq.ratio,
    peak_rss_mb: mem.peakMb,
    // the same figures on the same transport (node:http) and for the fetch-based core
    overhead_ratio_vs_bare_http: o.overhead_ratio_vs_bare_http,
    overhead_ratio_fetch_sender: o.overhead_ratio_fetch_sender,
    ingest_vs_raw_http_0ms: t0.ratio_vs_raw_http_pool,
    ingest_vs_raw_http_20ms: t20.ratio_vs_raw_http_pool,
    ingest_vs_raw_0ms_fetch_sender: t0.ratio_fetch_sender,
    ingest_vs_raw_20ms_fetch_sender: t20.ratio_fetch_sender,
    peak_rss_mb_raw_fetch_pool: memRaw.peakMb,
    details: {
      node: process.version,
      cpus: os.cpus().length,
      quick,
      overhead: o,
      throughput_0ms: t0,
      throughput_20ms: t20,
      sequential_20ms: seq,
      rss: {
        checkpoints: mem.at,
        seconds: mem.seconds,
        documents: mem.summary.created,
        concurrency: 8,
        raw_fetch_pool: { peak_mb: memRaw.peakMb, checkpoints: memRaw.at },
        concurrency_16: {
          peak_mb: mem16.peakMb,
          checkpoints: mem16.at,
          raw_fetch_pool_peak_mb: memRaw16.peakMb,
        },
      },
      targets: {
        overhead_ratio: '<= 1.10',
        ingest_vs_raw_0ms: '>= 0.95',
        ingest_vs_raw_20ms: '>= 0.95',
        ingest_vs_sequential_20ms: '>= 14',
        peak_rss_mb: '< 150, flat',
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
