/**
 * Benchmark of `kis ingest`, in two parts:
 *
 * 1. A generated folder of 2,000 mixed files into the emulator with 20 ms of service time per
 *    ingestion request, against a sequential loop doing the same requests (the "Python loop from
 *    the docs": extract, upload images, POST one document, wait, next).
 * 2. Files per second for each file kind on this machine (kinds.ts): a folder of each kind through
 *    `kis ingest` with default flags (0 ms of service time: what extraction and sending cost),
 *    and through extraction alone, so users can size a run.
 *
 * Run: `pnpm --filter @kis/cli bench` (or the root `pnpm bench:cli`). Prints the figures and writes
 * them, with the commit and the date, to bench/results/cli.json at the repository root (or
 * $KIS_BENCH_OUT). Options by environment: KIS_BENCH_FILES (default 2000), KIS_BENCH_LATENCY_MS
 * (20), KIS_BENCH_CONCURRENCY (16), KIS_BENCH_KIND_FILES (files per kind, default 200; 0 skips
 * part 2), KIS_BENCH_KIND_LATENCY_MS (0).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { extractFile } from '@kis/node';
import { makeDocx, makePdf, PNG_1X1, writeTree } from '@kis/test-support';
import { provenance } from '../../../bench/provenance.mjs';
import { sentence } from './kind-fixtures.js';
import { type KindFigures, measureKinds } from './kinds.js';
import {
  countDocuments,
  KEY,
  PACKAGE_ROOT,
  runIngest,
  startEmulatorProcess,
  stopEmulator,
} from './processes.js';

const OUT =
  process.env.KIS_BENCH_OUT ?? join(PACKAGE_ROOT, '..', '..', 'bench', 'results', 'cli.json');
const FILES = Number(process.env.KIS_BENCH_FILES ?? 2000);
const LATENCY_MS = Number(process.env.KIS_BENCH_LATENCY_MS ?? 20);
const CONCURRENCY = Number(process.env.KIS_BENCH_CONCURRENCY ?? 16);
const KIND_FILES = Number(process.env.KIS_BENCH_KIND_FILES ?? 200);
const KIND_LATENCY_MS = Number(process.env.KIS_BENCH_KIND_LATENCY_MS ?? 0);

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
    // as kis ingest walks: hidden entries (a pair journal kept in the folder's .kis/) are not read
    if (e.name.startsWith('.')) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* walk(path);
    else yield path;
  }
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

/** Part 1: `kis ingest` of the mixed folder against the sequential loop. */
async function mixed(root: string) {
  const dir = join(root, 'mixed');
  await writeTree(dir, generate(FILES));
  console.log(
    `kis ingest of ${FILES} mixed files, ${LATENCY_MS} ms service time per ingestion request, concurrency ${CONCURRENCY}`,
  );
  const cliEmu = await startEmulatorProcess(LATENCY_MS);
  let cliMs: number;
  try {
    const args = ['.', '--concurrency', String(CONCURRENCY)];
    cliMs = (await runIngest(args, { cwd: dir, baseUrl: cliEmu.baseUrl, expected: FILES })).wallMs;
    const stored = await countDocuments(cliEmu.baseUrl);
    if (stored !== FILES) throw new Error(`kis ingest stored ${stored} of ${FILES} documents`);
  } finally {
    await stopEmulator(cliEmu);
  }
  const loopEmu = await startEmulatorProcess(LATENCY_MS);
  let loopMs: number;
  try {
    loopMs = await runSequential(dir, loopEmu.baseUrl);
    const stored = await countDocuments(loopEmu.baseUrl);
    if (stored !== FILES)
      throw new Error(`the sequential loop stored ${stored} of ${FILES} documents`);
  } finally {
    await stopEmulator(loopEmu);
  }
  const cliRate = (FILES * 1000) / cliMs;
  const loopRate = (FILES * 1000) / loopMs;
  console.log(
    `  kis ingest (concurrency ${CONCURRENCY}): ${(cliMs / 1000).toFixed(2)} s, ${cliRate.toFixed(1)} docs/s`,
  );
  console.log(
    `  sequential loop:            ${(loopMs / 1000).toFixed(2)} s, ${loopRate.toFixed(1)} docs/s`,
  );
  console.log(`  ratio: ${(cliRate / loopRate).toFixed(1)}x faster`);
  return {
    files: FILES,
    mix: 'txt 30%, md 25%, html 15%, csv 10%, json 10%, pdf 5%, docx ~4%, png ~1%',
    service_latency_ms: LATENCY_MS,
    concurrency: CONCURRENCY,
    cli: { elapsed_ms: Math.round(cliMs), docs_per_sec: round(cliRate) },
    sequential: { elapsed_ms: Math.round(loopMs), docs_per_sec: round(loopRate) },
    ratio: round(cliRate / loopRate),
  };
}

/** Part 2: files per second for each kind. */
async function perKind(root: string): Promise<KindFigures[]> {
  console.log(
    `\nfiles per second for each kind: ${KIND_FILES} files of each, kis ingest with default flags at ${KIND_LATENCY_MS} ms service time, and extraction alone (one core)`,
  );
  console.log(
    `  ${'kind'.padEnd(9)} ${'ext'.padEnd(6)} ${'bytes'.padStart(6)} ${'ingest/s'.padStart(9)} ${'extract/s'.padStart(10)}`,
  );
  const emu = await startEmulatorProcess(KIND_LATENCY_MS);
  try {
    return await measureKinds(join(root, 'kinds'), KIND_FILES, emu.baseUrl, (f) => {
      console.log(
        `  ${f.kind.padEnd(9)} ${f.extension.padEnd(6)} ${String(f.bytes_per_file).padStart(6)} ${f.ingest.files_per_sec.toFixed(1).padStart(9)} ${f.extract.files_per_sec.toFixed(1).padStart(10)}`,
      );
    });
  } finally {
    await stopEmulator(emu);
  }
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'kis-bench-'));
  try {
    console.log(`${cpus().length} CPU(s), Node ${process.version}`);
    const result = {
      benchmark: 'kis ingest: vs a sequential loop, and files per second for each kind',
      ...provenance(),
      ...(FILES > 0 ? await mixed(root) : {}),
      ...(KIND_FILES > 0
        ? {
            per_kind: {
              files_per_kind: KIND_FILES,
              service_latency_ms: KIND_LATENCY_MS,
              flags: 'default',
              kinds: Object.fromEntries((await perKind(root)).map(({ kind, ...f }) => [kind, f])),
            },
          }
        : {}),
    };
    mkdirSync(dirname(OUT), { recursive: true });
    writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`written to ${OUT}`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

await main();
