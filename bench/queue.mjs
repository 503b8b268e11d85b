// `pnpm bench:queue`: queue mode (@kis/queue) on a private redis-server and the emulator, workers in
// their own processes (bench/queue-worker.mjs). Each ratio is measured side by side in this run.
// Prints the figures and writes bench/results/queue.json; never passes or fails on time.
// `--quick` runs every scenario at a quarter of its size (a check that the script works).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { startEmulator } from '@kis/emulator';
import { enqueue, queueStatus, setQueueLimits } from '@kis/queue';
import { writeDocuments } from './lib/documents.mjs';
import { judged, said } from './lib/targets.mjs';
import { provenance } from './provenance.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KIS = join(root, 'packages/cli/bin/kis.js');
const WORKER = join(root, 'bench/queue-worker.mjs');
const PRODUCER = join(root, 'bench/queue-producer.mjs');
const KEY = 'kis-bench-queue-admin-key-0123456789';
const quick = process.argv.includes('--quick');
const scale = quick ? 0.25 : 1;
const work = mkdtempSync(join(tmpdir(), 'kis-bench-queue-'));
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- Redis -------------------------------------------------------------------------------------

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function ping(port) {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

async function startRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(work, 'redis-'));
  let child;
  const start = async () => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--save',
        '',
      ],
      { stdio: 'ignore' },
    );
    while (!(await ping(port))) await sleep(25);
  };
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  };
  await start();
  const info = (section) =>
    Object.fromEntries(
      execFileSync('redis-cli', ['-p', String(port), 'info', section], { encoding: 'utf8' })
        .split('\r\n')
        .filter((l) => l.includes(':'))
        .map((l) => l.split(':')),
    );
  return { url: `redis://127.0.0.1:${port}/0`, port, start, stop, info, pid: () => child.pid };
}

// ---- workload ----------------------------------------------------------------------------------

/** A PDF of `pages` pages of text (written by hand: a valid cross-reference table). */
function makePdf(pages, seed) {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', null];
  const kids = [];
  const font = 3;
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let p = 0; p < pages; p++) {
    const lines = Array.from(
      { length: 3 },
      (_, l) =>
        `(Report ${seed} page ${p + 1} line ${l + 1}: the quick brown fox jumps over the lazy dog) Tj T*`,
    ).join(' ');
    const stream = `BT /F1 10 Tf 12 TL 40 760 Td ${lines} ET`;
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
    const contents = objects.length;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`,
    );
    kids.push(`${objects.length} 0 R`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  let out = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A zip of the given entries, stored without compression. */
function makeZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = Buffer.from(content, 'utf8');
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const size = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

function makeDocx(paragraphs, seed) {
  const run = (t) =>
    `<w:r><w:rPr><w:b/><w:i/><w:color w:val="333333"/><w:sz w:val="22"/></w:rPr><w:t xml:space="preserve">${t} </w:t></w:r>`;
  const body = Array.from(
    { length: paragraphs },
    (_, i) =>
      `<w:p>${Array.from({ length: 20 }, (_, r) => run(r === 0 ? `${seed}.${i}` : 'ab')).join('')}</w:p>`,
  ).join('');
  return makeZip({
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  });
}

// ---- processes ---------------------------------------------------------------------------------

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** CPU seconds (user + system) a live process has used so far, from /proc/<pid>/stat (Linux). */
function cpuSecondsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name, which may hold spaces: utime and stime are the 12th and 13th
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * bench/queue-producer.mjs on a folder or a JSONL file, in its own process so that its CPU time
 * is its own; spawned, not spawnSync: the emulator serves from this process's event loop.
 */
function produce(path, target, batchSize) {
  const child = spawn(
    process.execPath,
    [PRODUCER, path, target.connection, target.queue, String(batchSize)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve, reject) => {
    child.once('close', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim())) : reject(new Error(`producer exited ${code}`)),
    );
  });
}

/** A worker process; `last` holds its latest progress line. */
async function spawnWorker(options) {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(options)], {
    env: { ...process.env, KIS_API_KEY: KEY },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const state = { child, last: undefined, summary: undefined };
  let buffer = '';
  let ready;
  const isReady = new Promise((r) => {
    ready = r;
  });
  child.stdout.on('data', (d) => {
    buffer += d;
    let nl = buffer.indexOf('\n');
    while (nl !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line === 'ready') ready();
      else if (line.startsWith('{')) {
        const msg = JSON.parse(line);
        if (msg.progress) state.last = msg.progress;
        if (msg.summary) state.summary = msg.summary;
      }
      nl = buffer.indexOf('\n');
    }
  });
  state.exited = new Promise((r) => child.once('exit', r));
  await isReady;
  return state;
}

async function stopWorkers(workers) {
  for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGTERM');
  await Promise.all(workers.map((w) => w.exited));
}

async function waitFinished(target, runId, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = (await queueStatus({ ...target, runId, failures: 0 })).runs[0];
    if (run?.finished) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not finish in time`);
    await sleep(100);
  }
}

let queueNo = 0;
const newTarget = (redis, tag) => ({ connection: redis.url, queue: `bench-${tag}-${++queueNo}` });

/** Per-calendar-second counts of the ingestion requests an emulator served (by start time). */
function requestLog() {
  const starts = [];
  let lastEnd = 0;
  return {
    logRequest: (line) => {
      const m = /^POST \S*\/ingestion \d+ ([\d.]+)ms$/.exec(line);
      if (!m) return;
      lastEnd = Date.now();
      starts.push(lastEnd - Number(m[1]));
    },
    span: () => ({ firstStart: Math.min(...starts), lastStart: Math.max(...starts), lastEnd }),
    maxPerSecond() {
      const per = new Map();
      for (const t of starts)
        per.set(Math.floor(t / 1000), (per.get(Math.floor(t / 1000)) ?? 0) + 1);
      return Math.max(0, ...per.values());
    },
    count: () => starts.length,
  };
}

// ---- scenarios ---------------------------------------------------------------------------------

/** Goodput of `n` workers (concurrency 8) against a server that is not the limit. */
async function scaleOutOnce(redis, workers, docs) {
  const emulator = await startEmulator({ adminKey: KEY, latencyMs: 200, capacity: 256 });
  try {
    const target = newTarget(redis, 'scale');
    const run = await enqueue(
      { kind: 'jsonl', file: writeDocuments(work, docs, `s${workers}`) },
      { ...target, batchSize: 10 },
    );
    const procs = await Promise.all(
      Array.from({ length: workers }, (_, i) =>
        spawnWorker({ ...target, baseUrl: emulator.baseUrl, concurrency: 8, name: `w${i}` }),
      ),
    );
    const status = await waitFinished(target, run.runId);
    await stopWorkers(procs);
    return {
      workers,
      documents: docs,
      docs_per_sec: status.throughput.overallPerSec,
      failed: status.documents.failed,
    };
  } finally {
    await emulator.close();
  }
}

async function scaleOut(redis) {
  const one = await scaleOutOnce(redis, 1, Math.round(600 * scale));
  const four = await scaleOutOnce(redis, 4, Math.round(2400 * scale));
  return { one, four, ratio: round(four.docs_per_sec / one.docs_per_sec) };
}

/** The machine's CPU time, busy and idle, summed over its cores (ms). */
function cpuTimes() {
  let busy = 0;
  let idle = 0;
  for (const { times } of cpus()) {
    busy += times.user + times.nice + times.sys + times.irq;
    idle += times.idle;
  }
  return { busy, idle };
}

/** Cores kept busy (every process: workers, their GC threads, Redis, the emulator) since `from`. */
function busyCores(from, seconds) {
  const now = cpuTimes();
  return round((now.busy - from.busy) / 1000 / seconds);
}

/**
 * CPU-bound extraction: a folder of PDF and DOCX files, 1 worker then 2. Issue 29's figure is
 * documents per CPU-second of every process the queue runs on (workers, Redis, the producer):
 * with 2 workers at least 0.85x that with 1. Wall-clock speed-up is kept for information.
 */
async function cpuBound(redis) {
  const folder = join(work, 'office');
  const n = Math.round(80 * scale);
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < n; i++) {
    writeFileSync(join(folder, `report-${i}.pdf`), makePdf(100, i));
    writeFileSync(join(folder, `memo-${i}.docx`), makeDocx(120, i));
  }
  const once = async (workers) => {
    const emulator = await startEmulator({ adminKey: KEY });
    try {
      const target = newTarget(redis, 'cpu');
      const procs = await Promise.all(
        Array.from({ length: workers }, (_, i) =>
          spawnWorker({
            ...target,
            baseUrl: emulator.baseUrl,
            root: folder,
            concurrency: 4,
            name: `c${i}`,
          }),
        ),
      );
      // workers and Redis from the enqueue to the run's end: a worker's start-up is paid once in
      // its life, not per run; the producer lives for the enqueue only and counts whole
      const pids = [redis.pid(), ...procs.map((w) => w.child.pid)];
      const cpuFrom = pids.map(cpuSecondsOf);
      const started = performance.now();
      const cpuAtStart = cpuTimes();
      const run = await produce(folder, target, 4);
      const status = await waitFinished(target, run.runId);
      const seconds = (performance.now() - started) / 1000;
      const busy = busyCores(cpuAtStart, seconds);
      const [redisCpu, ...workerCpu] = pids.map((pid, i) => cpuSecondsOf(pid) - cpuFrom[i]);
      await stopWorkers(procs);
      const cpuSeconds = redisCpu + run.cpuSeconds + workerCpu.reduce((a, b) => a + b, 0);
      return {
        workers,
        documents: run.documents,
        seconds: round(seconds),
        docs_per_sec: round(run.documents / seconds, 1),
        failed: status.documents.failed,
        cpu_seconds: {
          workers: workerCpu.map((c) => round(c)),
          redis: round(redisCpu),
          producer: round(run.cpuSeconds),
          total: round(cpuSeconds),
        },
        docs_per_cpu_second: round(run.documents / cpuSeconds),
        busy_cores: busy,
      };
    } finally {
      await emulator.close();
    }
  };
  const one = await once(1);
  const two = await once(2);
  // one worker already keeps more than a core busy (V8's GC threads, Redis, the emulator): two
  // cannot go faster than the machine's cores allow, whatever the queue does
  const ceiling = round(Math.min(2, cpus().length / one.busy_cores));
  return {
    one,
    two,
    docs_per_cpu_second_ratio: round(two.docs_per_cpu_second / one.docs_per_cpu_second),
    wall_clock_ratio: round(two.docs_per_sec / one.docs_per_sec),
    ceiling_from_busy_cores: ceiling,
  };
}

/**
 * A global rate of 50/s: jobs of the default size (50 documents from a JSONL file), 4 workers
 * started after the enqueue. The rate holds per request, not per job: the most requests the server
 * saw in one second, and the rate the run achieved.
 */
async function rate(redis) {
  const log = requestLog();
  const emulator = await startEmulator({ adminKey: KEY, logRequest: log.logRequest });
  try {
    const target = newTarget(redis, 'rate');
    await setQueueLimits({ ...target, rate: '50/s' });
    const docs = Math.round(600 * scale);
    // no batchSize: the default, as `kis ingest --queue` enqueues
    const run = await enqueue({ kind: 'jsonl', file: writeDocuments(work, docs, 'rate') }, target);
    // workers after the enqueue find every job waiting at once: the hardest start for the rate
    const procs = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        spawnWorker({ ...target, baseUrl: emulator.baseUrl, concurrency: 8, name: `r${i}` }),
      ),
    );
    await waitFinished(target, run.runId);
    await stopWorkers(procs);
    const span = log.span();
    return {
      workers: 4,
      documents: docs,
      jobs: run.jobs,
      batch_size: run.batchSize,
      requests: log.count(),
      max_requests_in_one_second: log.maxPerSecond(),
      // starts per second from the first to the last request, and documents from first to done
      achieved_requests_per_sec: round(
        (log.count() - 1) / ((span.lastStart - span.firstStart) / 1000),
        1,
      ),
      achieved_docs_per_sec: round(docs / ((span.lastEnd - span.firstStart) / 1000), 1),
    };
  } finally {
    await emulator.close();
  }
}

/** One `kis ingest FILE --fixed-concurrency --concurrency c`: documents per second. */
function localIngest(baseUrl, file, concurrency) {
  const journal = join(work, `journal-${Math.random().toString(36).slice(2)}.jsonl`);
  const args = ['--json', 'ingest', file, '--journal', journal, '--fixed-concurrency'];
  args.push('--concurrency', String(concurrency));
  // spawned, not spawnSync: the emulator serves from this process's event loop
  const child = spawn(process.execPath, [KIS, ...args], {
    env: { ...process.env, KIS_BASE_URL: baseUrl, KIS_API_KEY: KEY },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve) => {
    child.once('close', () => {
      const summary = JSON.parse(out.trim().split('\n').at(-1) ?? '{}').summary ?? {};
      resolve({
        concurrency,
        docs_per_sec: round(summary.rate_per_sec ?? 0, 1),
        failed: summary.failed,
      });
    });
  });
}

/** The server as the limit (capacity 16): 4 workers against the best fixed local concurrency. */
async function serverLimit(redis) {
  const docs = Math.round(4000 * scale);
  const local = [];
  for (const c of [8, 16, 24, 32]) {
    const emulator = await startEmulator({ adminKey: KEY, capacity: 16, latencyMs: 50 });
    try {
      local.push(await localIngest(emulator.baseUrl, writeDocuments(work, docs, `local${c}`), c));
    } finally {
      await emulator.close();
    }
  }
  const best = local.reduce((a, b) => (b.docs_per_sec > a.docs_per_sec ? b : a));
  const emulator = await startEmulator({ adminKey: KEY, capacity: 16, latencyMs: 50 });
  try {
    const target = newTarget(redis, 'limit');
    const run = await enqueue(
      { kind: 'jsonl', file: writeDocuments(work, docs, 'limit') },
      { ...target, batchSize: 20 },
    );
    const procs = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        spawnWorker({ ...target, baseUrl: emulator.baseUrl, concurrency: 8, name: `l${i}` }),
      ),
    );
    const status = await waitFinished(target, run.runId);
    await stopWorkers(procs);
    return {
      documents: docs,
      local,
      best_local: best,
      queue_4_workers: {
        docs_per_sec: status.throughput.overallPerSec,
        failed: status.documents.failed,
      },
      ratio: round(status.throughput.overallPerSec / best.docs_per_sec),
    };
  } finally {
    await emulator.close();
  }
}

/** One of 3 workers killed with SIGKILL mid-run; then Redis stopped and restarted mid-run. */
async function failures(redis) {
  const docs = Math.round(3000 * scale);
  const out = {};
  {
    const emulator = await startEmulator({ adminKey: KEY, latencyMs: 50 });
    try {
      const target = newTarget(redis, 'kill');
      const run = await enqueue(
        { kind: 'jsonl', file: writeDocuments(work, docs, 'kill') },
        { ...target, batchSize: 20 },
      );
      const opts = {
        ...target,
        baseUrl: emulator.baseUrl,
        concurrency: 8,
        lockDurationMs: 5000,
        stalledIntervalMs: 2000,
      };
      const procs = await Promise.all(
        [0, 1, 2].map((i) => spawnWorker({ ...opts, name: `k${i}` })),
      );
      while (emulator.stats().ingestion.acknowledged < docs * 0.3) await sleep(20);
      const victim = procs[0];
      const inFlightAtKill = victim.last?.inFlight ?? null;
      victim.child.kill('SIGKILL');
      await victim.exited;
      const status = await waitFinished(target, run.runId);
      await stopWorkers(procs.slice(1));
      const stats = emulator.stats();
      const stored = new Set(emulator.state.documents({ limit: docs * 2 }).map((d) => d.id)).size;
      out.sigkill = {
        documents: docs,
        lost: docs - stored,
        resent: stats.ingestion.requests - docs,
        resent_after_ack: stats.ingestion.resent_after_ack,
        in_flight_bound: 8,
        in_flight_last_reported: inFlightAtKill,
        failed: status.documents.failed,
      };
    } finally {
      await emulator.close();
    }
  }
  {
    const emulator = await startEmulator({ adminKey: KEY, latencyMs: 50 });
    try {
      const target = newTarget(redis, 'redis');
      const run = await enqueue(
        { kind: 'jsonl', file: writeDocuments(work, docs, 'redis') },
        { ...target, batchSize: 20 },
      );
      const procs = await Promise.all(
        [0, 1, 2].map((i) =>
          spawnWorker({ ...target, baseUrl: emulator.baseUrl, concurrency: 8, name: `d${i}` }),
        ),
      );
      while (emulator.stats().ingestion.acknowledged < docs * 0.3) await sleep(20);
      await redis.stop();
      await sleep(3000);
      await redis.start();
      const back = performance.now();
      const before = emulator.stats().ingestion.acknowledged;
      while (emulator.stats().ingestion.acknowledged === before) await sleep(10);
      const resumedAfter = (performance.now() - back) / 1000;
      const status = await waitFinished(target, run.runId);
      await stopWorkers(procs);
      const stats = emulator.stats();
      const stored = new Set(emulator.state.documents({ limit: docs * 2 }).map((d) => d.id)).size;
      out.redis_restart = {
        documents: docs,
        redis_down_seconds: 3,
        lost: docs - stored,
        resent: stats.ingestion.requests - docs,
        seconds_to_next_ack_after_restart: round(resumedAfter),
        failed: status.documents.failed,
      };
    } finally {
      await emulator.close();
    }
  }
  return out;
}

/** 10^6 documents enqueued from a JSONL file: the producer's peak RSS and Redis memory per document. */
async function million(redis) {
  const measure = async (docs, batchSize, tag, nodeFlags = []) => {
    const file = join(work, `${tag}.jsonl`);
    // written in slices: the benchmark's own memory stays small too
    writeFileSync(file, '');
    const slice = 50_000;
    for (let i = 0; i < docs; i += slice) {
      const lines = [];
      for (let j = i; j < Math.min(docs, i + slice); j++) {
        lines.push(
          JSON.stringify({
            id: `m-${j}`,
            semantic_identifier: `Doc ${j}`,
            sections: [{ text: `Body ${j}` }],
            metadata: {},
          }),
        );
      }
      writeFileSync(file, `${lines.join('\n')}\n`, { flag: 'a' });
    }
    const target = newTarget(redis, tag);
    const before = Number(redis.info('memory').used_memory);
    const started = performance.now();
    const r = spawnSync(
      process.execPath,
      [...nodeFlags, PRODUCER, file, redis.url, target.queue, String(batchSize)],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      },
    );
    if (r.status !== 0) throw new Error(`producer failed: ${r.stderr}`);
    const seconds = (performance.now() - started) / 1000;
    const result = JSON.parse(r.stdout.trim());
    const after = Number(redis.info('memory').used_memory);
    rmSync(file);
    return {
      documents: result.documents,
      jobs: result.jobs,
      batch_size: batchSize,
      seconds: round(seconds, 1),
      producer_peak_rss_mb: result.peakRssMb,
      redis_bytes_per_document: round((after - before) / result.documents, 1),
      redis_mb: round((after - before) / 2 ** 20, 1),
    };
  };
  const million = quick ? 250_000 : 1_000_000;
  const batched = await measure(million, 50, 'million');
  // V8's young generation (16 MB semi-spaces) is most of the peak: allocation churn, not data kept
  const smallYoung = await measure(million, 50, 'million-semi4', ['--max-semi-space-size=4']);
  return {
    batched,
    batched_max_semi_space_4mb: smallYoung,
  };
}

// ---- main --------------------------------------------------------------------------------------

const redis = await startRedis();
const results = {
  benchmark: 'queue mode: @kis/queue workers on BullMQ and Redis against the emulator',
  ...provenance(),
  redis: redis.info('server').redis_version,
  quick,
  load_average_before: loadavg().map((n) => round(n)),
};
try {
  // each step: its name in the JSON, the scenario, its figures beside their targets, its line
  const steps = [
    [
      'scale_out',
      scaleOut,
      (r) => ({ scale_out_4_vs_1: judged(r.ratio, '>= 3.5') }),
      (r, t) =>
        `scale-out: 4 workers ÷ 1 = ${r.ratio} (${r.four.docs_per_sec} vs ${r.one.docs_per_sec} docs/s; ${said(t.scale_out_4_vs_1)})`,
    ],
    [
      'cpu_bound',
      cpuBound,
      (r) => ({
        cpu_bound_docs_per_cpu_second_2_vs_1: judged(r.docs_per_cpu_second_ratio, '>= 0.85'),
      }),
      (r, t) =>
        `CPU-bound extraction: docs per CPU-second (workers, Redis, producer) 2 workers ÷ 1 = ${r.docs_per_cpu_second_ratio} (${r.two.docs_per_cpu_second} vs ${r.one.docs_per_cpu_second}; ${said(t.cpu_bound_docs_per_cpu_second_2_vs_1)}); wall clock 2 ÷ 1 = ${r.wall_clock_ratio} (${r.two.docs_per_sec} vs ${r.one.docs_per_sec} docs/s); busy cores ${r.one.busy_cores} with 1 worker, ${r.two.busy_cores} with 2: at most ${r.ceiling_from_busy_cores}× on this machine`,
    ],
    [
      'rate',
      rate,
      (r) => ({ rate_max_requests_in_one_second: judged(r.max_requests_in_one_second, '<= 55') }),
      (r, t) =>
        `rate 50/s, jobs of ${r.batch_size}, 4 workers started after the enqueue: at most ${r.max_requests_in_one_second} requests in one second (${said(t.rate_max_requests_in_one_second)}); achieved ${r.achieved_requests_per_sec} requests/s, ${r.achieved_docs_per_sec} docs/s`,
    ],
    [
      'server_limit',
      serverLimit,
      (r) => ({
        server_limit_vs_best_local: judged(r.ratio, '>= 0.9'),
        server_limit_failed: judged(r.queue_4_workers.failed, '= 0'),
      }),
      (r, t) =>
        `server as the limit: 4 workers ÷ best local = ${r.ratio} (best local c=${r.best_local.concurrency} ${r.best_local.docs_per_sec} docs/s; ${said(t.server_limit_vs_best_local)}), failed ${r.queue_4_workers.failed}`,
    ],
    [
      'failures',
      failures,
      (r) => ({
        sigkill_lost: judged(r.sigkill.lost, '= 0'),
        // at most what the killed worker had in flight: its concurrency
        sigkill_resent: judged(r.sigkill.resent, '<= 8'),
        redis_restart_lost: judged(r.redis_restart.lost, '= 0'),
      }),
      (r, t) =>
        `SIGKILL 1 of 3: lost ${r.sigkill.lost} (${said(t.sigkill_lost)}), re-sent ${r.sigkill.resent} (${said(t.sigkill_resent)}); Redis restart: lost ${r.redis_restart.lost} (${said(t.redis_restart_lost)}), next ack ${r.redis_restart.seconds_to_next_ack_after_restart} s after`,
    ],
    [
      'enqueue_million',
      million,
      (r) => ({ producer_peak_rss_mb: judged(r.batched.producer_peak_rss_mb, '< 150') }),
      (r, t) =>
        `enqueue ${r.batched.documents}: producer peak RSS ${r.batched.producer_peak_rss_mb} MB (${said(t.producer_peak_rss_mb)}), ${r.batched_max_semi_space_4mb.producer_peak_rss_mb} MB with --max-semi-space-size=4, Redis ${r.batched.redis_bytes_per_document} B/doc (batches of 50)`,
    ],
  ];
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',');
  const targets = {};
  for (const [name, run, judge, line] of steps) {
    if (only && !only.includes(name)) continue;
    results[name] = await run(redis);
    const t = judge(results[name]);
    Object.assign(targets, t);
    console.log(line(results[name], t));
  }
  results.targets = targets;
  results.load_average_after = loadavg().map((n) => round(n));
  const out = join(root, 'bench/results/queue.json');
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${out}`);
} finally {
  await redis.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
