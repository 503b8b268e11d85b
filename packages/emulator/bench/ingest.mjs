#!/usr/bin/env node
// Ingestion benchmark of the emulator: N documents posted by C concurrent keep-alive clients on
// loopback to the built `kis-emulator` running in a child process (its own event loop) with a
// durable file database (WAL). Prints requests per second, p50/p99 latency and the server's RSS
// sampled along the way, and writes them to bench/results/emulator.json at the repository root.
//
//   pnpm --filter @kis/emulator bench [-- --documents 100000 --concurrency 16 --latency-ms 0
//     --profile seed|deployed]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { provenance } from '../../../bench/provenance.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..');
const repoRoot = join(packageDir, '..', '..');

const { values } = parseArgs({
  options: {
    documents: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '16' },
    warmup: { type: 'string', default: '2000' },
    'latency-ms': { type: 'string', default: '0' },
    profile: { type: 'string', default: 'seed' },
    samples: { type: 'string', default: '10' },
    output: { type: 'string', default: join(repoRoot, 'bench', 'results', 'emulator.json') },
  },
});
const positiveInt = (name) => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a non-negative integer (got '${values[name]}')`);
    process.exit(2);
  }
  return n;
};
const DOCUMENTS = positiveInt('documents');
const CONCURRENCY = Math.max(1, positiveInt('concurrency'));
const WARMUP = positiveInt('warmup');
const LATENCY_MS = positiveInt('latency-ms');
const SAMPLES = Math.max(1, positiveInt('samples'));

const dir = mkdtempSync(join(tmpdir(), 'kis-emulator-bench-'));
const dbPath = join(dir, 'bench.db');
const adminKey = `bench-${randomBytes(18).toString('base64url')}`;

function startServer() {
  const child = spawn(
    process.execPath,
    [
      join(packageDir, 'bin', 'kis-emulator.js'),
      '--port',
      '0',
      '--db',
      dbPath,
      '--latency-ms',
      String(LATENCY_MS),
      '--profile',
      values.profile,
      '--json',
    ],
    {
      env: { ...process.env, KIS_EMULATOR_ADMIN_KEY: adminKey, KIS_EMULATOR_USER_KEY: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
      if (line !== undefined) resolve({ child, ready: JSON.parse(line) });
    });
    child.on('exit', (code) => reject(new Error(`kis-emulator exited (${code}) before ready`)));
  });
}

/** RSS of a process in MiB, from /proc (Linux) or `ps`. */
function rssMiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return null;
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function call(url, method, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${adminKey}`,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const LOREM =
  'The Knowledge Indexing Service indexes content from external systems and from pushed ' +
  'documents. Connectors describe sources; credentials hold their secrets; documents pushed ' +
  'through the ingestion endpoint are attached to a connector/credential pair and indexed ' +
  'asynchronously. ';

function documentBody(i, pairId) {
  return JSON.stringify({
    document: {
      id: `bench-${i}`,
      semantic_identifier: `Benchmark document ${i}`,
      title: `Benchmark document ${i}`,
      sections: [
        { text: LOREM.repeat(2), link: `https://docs.example.com/bench/${i}` },
        { text: `Section two of document ${i}. ${LOREM}` },
      ],
      source: 'web',
      metadata: { team: 'bench', tags: ['a', 'b', String(i % 100)] },
      doc_updated_at: '2025-01-15T10:00:00Z',
      primary_owners: [{ display_name: 'Bench Owner', email: 'owner@example.com' }],
    },
    cc_pair_id: pairId,
  });
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

async function main() {
  const { child, ready } = await startServer();
  const base = ready.base_url;
  const ingestUrl = `${base}/svc-api/ingestion`;
  try {
    // A web connector with the default credential gives the pair the documents attach to.
    const created = await call(
      `${base}/manage/admin/connector`,
      'POST',
      JSON.stringify({
        name: 'Bench site',
        source: 'web',
        input_type: 'load_state',
        access_type: 'public',
        connector_specific_config: {},
      }),
    );
    const connectorId = JSON.parse(created.text).id;
    const assoc = await call(
      `${base}/manage/admin/connector/${connectorId}/credential/0`,
      'PUT',
      JSON.stringify({ access_type: 'public' }),
    );
    const pairId = JSON.parse(assoc.text).data;

    // Warm-up (not measured): JIT, SQLite page cache, sockets.
    let next = 0;
    const warmEnd = WARMUP;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < warmEnd) {
          const i = next++;
          const r = await call(ingestUrl, 'POST', documentBody(`warm-${i}`, pairId));
          if (r.status !== 200)
            throw new Error(`warm-up ingestion answered ${r.status}: ${r.text}`);
        }
      }),
    );

    const loadBefore = loadavg()[0];
    const rssSamples = [{ documents: 0, rss_mib: rssMiB(child.pid) }];
    const sampleEvery = Math.max(1, Math.floor(DOCUMENTS / SAMPLES));
    const latencies = new Float64Array(DOCUMENTS);
    let errors = 0;
    let done = 0;
    next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < DOCUMENTS) {
          const i = next++;
          const body = documentBody(i, pairId);
          const start = performance.now();
          const r = await call(ingestUrl, 'POST', body);
          latencies[i] = performance.now() - start;
          if (r.status !== 200) errors++;
          done++;
          if (done % sampleEvery === 0) {
            rssSamples.push({ documents: done, rss_mib: rssMiB(child.pid) });
          }
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;

    // Indexing catches up in the background; time how long after the last answer.
    const tIndex = performance.now();
    let state;
    for (;;) {
      const r = await call(`${ready.url}/_emulator/state?limit=0`, 'GET');
      state = JSON.parse(r.text);
      if (state.indexing.queued === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const indexCatchUpMs = performance.now() - tIndex;

    const sorted = Array.from(latencies).sort((a, b) => a - b);
    const rssValues = rssSamples.map((s) => s.rss_mib).filter((v) => v !== null);
    const result = {
      benchmark: 'emulator-ingestion',
      ...provenance(),
      command: 'pnpm --filter @kis/emulator bench',
      machine: {
        node: process.version,
        platform: `${process.platform} ${process.arch}`,
        cpus: cpus().length,
        cpu_model: cpus()[0]?.model ?? 'unknown',
        total_memory_mib: Math.round(totalmem() / 1024 / 1024),
        // 1-minute load averages: other work on the machine lowers the figures.
        load_average_before: Math.round(loadBefore * 100) / 100,
        load_average_after: Math.round(loadavg()[0] * 100) / 100,
      },
      config: {
        documents: DOCUMENTS,
        warmup_documents: WARMUP,
        concurrency: CONCURRENCY,
        latency_ms: LATENCY_MS,
        profile: values.profile,
        transport: 'HTTP/1.1 keep-alive on 127.0.0.1, server in a child process',
        storage:
          'SQLite file, journal_mode=WAL, synchronous=NORMAL, each answer sent after its commit (group commit)',
        document_bytes: Buffer.byteLength(documentBody(0, pairId)),
      },
      results: {
        requests_per_second: Math.round(DOCUMENTS / seconds),
        duration_s: Math.round(seconds * 100) / 100,
        latency_ms: {
          p50: Math.round(percentile(sorted, 50) * 100) / 100,
          p90: Math.round(percentile(sorted, 90) * 100) / 100,
          p99: Math.round(percentile(sorted, 99) * 100) / 100,
          max: Math.round((sorted[sorted.length - 1] ?? 0) * 100) / 100,
        },
        errors,
        documents_stored: state.documents_total,
        index_catch_up_ms: Math.round(indexCatchUpMs),
        server_rss_mib: {
          samples: rssSamples,
          min: Math.min(...rssValues),
          max: Math.max(...rssValues),
          first: rssValues[0] ?? null,
          last: rssValues[rssValues.length - 1] ?? null,
        },
        db_file_mib: Math.round((statSync(dbPath).size / 1024 / 1024) * 10) / 10,
      },
      target: { requests_per_second: 1500, memory: 'flat over 100,000 documents' },
    };

    const r = result.results;
    console.log(
      `kis-emulator ingestion: ${DOCUMENTS} documents, ${CONCURRENCY} concurrent clients, durable (WAL)`,
    );
    console.log(`  throughput: ${r.requests_per_second} requests/s (${r.duration_s} s)`);
    console.log(
      `  latency:    p50 ${r.latency_ms.p50} ms, p90 ${r.latency_ms.p90} ms, p99 ${r.latency_ms.p99} ms, max ${r.latency_ms.max} ms`,
    );
    console.log(`  errors:     ${errors}; stored ${r.documents_stored} documents`);
    console.log(`  indexing caught up ${r.index_catch_up_ms} ms after the last answer`);
    console.log(
      `  server RSS: ${r.server_rss_mib.samples.map((s) => `${s.documents}:${s.rss_mib}`).join(' ')} MiB (documents:RSS)`,
    );
    mkdirSync(dirname(values.output), { recursive: true });
    writeFileSync(values.output, `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      `  machine:    ${result.machine.cpus} CPUs, load average ${result.machine.load_average_before} before, ${result.machine.load_average_after} after`,
    );
    console.log(`  written to ${values.output}`);
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
