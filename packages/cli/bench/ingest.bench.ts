/**
 * Benchmark: `kis ingest` of a generated folder of 2,000 mixed files into the emulator with 20 ms
 * of service time per ingestion request, against a sequential loop doing the same requests (the
 * "Python loop from the docs": extract, upload images, POST one document, wait, next).
 *
 * Run: `pnpm --filter @kis/cli bench` (or the root `pnpm bench:cli`). Prints both rates and the
 * ratio and writes /work/main/bench/results/cli.json (or $KIS_BENCH_OUT). Options by environment:
 * KIS_BENCH_FILES (default 2000), KIS_BENCH_LATENCY_MS (20), KIS_BENCH_CONCURRENCY (16).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFile } from '@kis/node';
import { makeDocx, makePdf, PNG_1X1, writeTree } from '@kis/test-support';

const here = dirname(fileURLToPath(import.meta.url));
// Compiled to node_modules/.cache/kis-cli-bench/bench/: the package root is four levels up.
const packageRoot = join(here, '..', '..', '..', '..');
const BIN = join(packageRoot, 'bin', 'kis.js');
const OUT =
  process.env.KIS_BENCH_OUT ?? join(packageRoot, '..', '..', 'bench', 'results', 'cli.json');
const FILES = Number(process.env.KIS_BENCH_FILES ?? 2000);
const LATENCY_MS = Number(process.env.KIS_BENCH_LATENCY_MS ?? 20);
const CONCURRENCY = Number(process.env.KIS_BENCH_CONCURRENCY ?? 16);
const KEY = 'kis-bench-admin-key-0123456789';

const WORDS =
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau'.split(
    ' ',
  );
const sentence = (i: number, n = 40) =>
  Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');

/** 2,000 files: text, markdown, HTML, CSV, JSON, PDF, DOCX and PNG, in nested folders. */
function generate(count: number): Record<string, string | Buffer> {
  const files: Record<string, string | Buffer> = {};
  for (let i = 0; i < count; i++) {
    const dir = `dept-${i % 10}/team-${i % 7}`;
    const body = `Document ${i}. ${sentence(i)}`;
    const kind = i % 20;
    if (kind < 6) files[`${dir}/note-${i}.txt`] = body;
    else if (kind < 11) files[`${dir}/page-${i}.md`] = `# Page ${i}\n\n${body}\n`;
    else if (kind < 14) {
      files[`${dir}/site-${i}.html`] =
        `<html><head><title>Site ${i}</title></head><body><h1>Site ${i}</h1><p>${body}</p></body></html>`;
    } else if (kind < 16)
      files[`${dir}/table-${i}.csv`] = `id,text\n${i},"${body}"\n${i + 1},more\n`;
    else if (kind < 18) files[`${dir}/record-${i}.json`] = JSON.stringify({ id: i, text: body });
    else if (kind === 18) files[`${dir}/report-${i}.pdf`] = makePdf(body.slice(0, 80));
    else if (i % 80 === 19) files[`${dir}/image-${i}.png`] = PNG_1X1;
    else files[`${dir}/letter-${i}.docx`] = makeDocx([`Letter ${i}`, body]);
  }
  return files;
}

async function* walk(dir: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** Starts `kis emulator` as its own process (so it does not share an event loop with the loop). */
async function startEmulatorProcess(): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      BIN,
      '--json',
      'emulator',
      '--port',
      '0',
      '--db',
      ':memory:',
      '--latency-ms',
      String(LATENCY_MS),
    ],
    {
      env: { ...process.env, KIS_API_KEY: KEY, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  const ready = JSON.parse(chunk.toString('utf8').split('\n')[0] ?? '{}') as { base_url: string };
  return { baseUrl: ready.base_url, child };
}

async function stopEmulator(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await once(child, 'exit');
}

async function countDocuments(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/svc-api/ingestion`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  return ((await res.json()) as unknown[]).length;
}

/** `kis ingest DIR`, as a user runs it. */
async function runCli(dir: string, baseUrl: string): Promise<number> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [BIN, '--json', '--quiet', 'ingest', '.', '--concurrency', String(CONCURRENCY)],
    {
      cwd: dir,
      env: { ...process.env, KIS_API_KEY: KEY, KIS_BASE_URL: baseUrl, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString('utf8');
  });
  const [code] = (await once(child, 'exit')) as [number];
  const elapsed = performance.now() - started;
  const summary = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}').summary as Record<
    string,
    number
  >;
  if (code !== 0 || summary.created !== FILES) {
    throw new Error(`kis ingest exited ${code} with ${JSON.stringify(summary)}`);
  }
  return elapsed;
}

/** The sequential loop: same extraction, same requests, one at a time. */
async function runSequential(dir: string, baseUrl: string): Promise<number> {
  const headers = { authorization: `Bearer ${KEY}` };
  const started = performance.now();
  let sent = 0;
  for await (const path of walk(dir)) {
    const key = relative(dir, path);
    const extracted = await extractFile(path);
    const info = await stat(path);
    let sections: unknown[];
    if (extracted.kind === 'image') {
      const form = new FormData();
      form.append(
        'files',
        new Blob([new Uint8Array(extracted.bytes)], { type: extracted.mime }),
        extracted.name,
      );
      const up = await fetch(`${baseUrl}/user/file/upload`, {
        method: 'POST',
        headers,
        body: form,
      });
      const answer = (await up.json()) as { user_files: { file_id: string }[] };
      sections = [{ image_file_id: answer.user_files[0]?.file_id, text: extracted.name }];
    } else {
      sections = extracted.sections.map(({ text }) => ({ text }));
    }
    const document = {
      id: key,
      semantic_identifier:
        extracted.kind === 'text' && extracted.title ? extracted.title : basename(path),
      sections,
      source: 'file',
      metadata: { file_type: extracted.fileType, relative_path: key },
      doc_updated_at: info.mtime.toISOString(),
    };
    const res = await fetch(`${baseUrl}/svc-api/ingestion`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ document }),
    });
    if (res.status !== 200)
      throw new Error(`sequential loop: ${key}: HTTP ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    sent++;
  }
  if (sent !== FILES) throw new Error(`sequential loop sent ${sent} of ${FILES}`);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'kis-bench-'));
  try {
    await writeTree(dir, generate(FILES));
    console.log(
      `kis ingest benchmark: ${FILES} mixed files, ${LATENCY_MS} ms service time per ingestion request, concurrency ${CONCURRENCY}, ${cpus().length} CPU(s), Node ${process.version}`,
    );

    const cliEmu = await startEmulatorProcess();
    let cliMs: number;
    try {
      cliMs = await runCli(dir, cliEmu.baseUrl);
      const stored = await countDocuments(cliEmu.baseUrl);
      if (stored !== FILES) throw new Error(`kis ingest stored ${stored} of ${FILES} documents`);
    } finally {
      await stopEmulator(cliEmu.child);
    }

    const loopEmu = await startEmulatorProcess();
    let loopMs: number;
    try {
      loopMs = await runSequential(dir, loopEmu.baseUrl);
      const stored = await countDocuments(loopEmu.baseUrl);
      if (stored !== FILES)
        throw new Error(`the sequential loop stored ${stored} of ${FILES} documents`);
    } finally {
      await stopEmulator(loopEmu.child);
    }

    const cliRate = (FILES * 1000) / cliMs;
    const loopRate = (FILES * 1000) / loopMs;
    const ratio = cliRate / loopRate;
    console.log(
      `  kis ingest (concurrency ${CONCURRENCY}): ${(cliMs / 1000).toFixed(2)} s, ${cliRate.toFixed(1)} docs/s`,
    );
    console.log(
      `  sequential loop:            ${(loopMs / 1000).toFixed(2)} s, ${loopRate.toFixed(1)} docs/s`,
    );
    console.log(`  ratio: ${ratio.toFixed(1)}x faster`);

    const result = {
      benchmark: 'kis ingest vs sequential loop',
      files: FILES,
      mix: 'txt 30%, md 25%, html 15%, csv 10%, json 10%, pdf 5%, docx ~4%, png ~1%',
      service_latency_ms: LATENCY_MS,
      concurrency: CONCURRENCY,
      cli: { elapsed_ms: Math.round(cliMs), docs_per_sec: round(cliRate) },
      sequential: { elapsed_ms: Math.round(loopMs), docs_per_sec: round(loopRate) },
      ratio: round(ratio),
      node: process.version,
      cpus: cpus().length,
      date: new Date().toISOString(),
    };
    mkdirSync(dirname(OUT), { recursive: true });
    writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`  written to ${OUT}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

await main();
