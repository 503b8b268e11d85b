// `pnpm bench:verify`: `kis verify FILE --cc-pair P` with its default flags over 100,000 documents
// (KIS_VERIFY_DOCS) pushed to the emulator (deployed profile) with `kis ingest`: documents per
// second and peak RSS, against a bare loop of the same reads (bench/verify-bare.mjs: the listing,
// then size info and one admin search per document, 16 at a time on an undici pool), as the cost
// per document of each. Then what the emulator embeds when the same file is sent again: with the
// pair's journal (kis ingest's default: nothing sent), and from a machine without it
// (`--no-journal`), where each line's own doc_updated_at lets the server's hash gate skip it
// (target 0 for both; a line with neither a time nor a journal is re-embedded, as documented).
// Prints the figures and writes
// bench/results/verify.json (with the commit and date); never passes or fails on time.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKisClient } from '@kis/client';
import { startEmulator } from '@kis/emulator';
import { provenance } from './provenance.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KIS = join(root, 'packages/cli/bin/kis.js');
const BARE = join(root, 'bench/verify-bare.mjs');
const KEY = 'kis-bench-verify-admin-key-0123456789';
const DOCS = Number(process.env.KIS_VERIFY_DOCS ?? 100_000);
/** Documents checked at once: `kis verify`'s default, and the bare loop's. */
const CONCURRENCY = 16;
const work = mkdtempSync(join(tmpdir(), 'kis-bench-verify-'));

/**
 * `n` documents whose text is 8 words seen in few other documents: the phrase kis verify searches
 * for is the whole text, which the bare loop searches for too. Rare words, since the emulator's
 * keyword search (SQLite FTS5, words ORed, ranked by BM25) reads every row a word matches: words
 * shared by the whole corpus would measure the emulator, not the tools.
 */
function writeCorpus(n) {
  const file = join(work, `verify-${n}.jsonl`);
  const word = (i, k) => `${'abcdefgh'[k]}${(i * (2 * k + 3)) % n}${'wxyz'[k % 4]}`;
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      id: `doc-${i}`,
      semantic_identifier: `Field report ${i}`,
      sections: [{ text: Array.from({ length: 8 }, (_, k) => word(i, k)).join(' ') }],
      source: 'file',
      metadata: {},
      // exports say when a record last changed; kis sends it as doc_updated_at
      doc_updated_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** A process's resident set now and its high-water mark, from /proc (zeros once it is gone). */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

/** Runs `node ARGS`, its memory sampled every 100 ms; its exit code, stdout, seconds, peak RSS. */
async function sampled(args, env = {}) {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: work,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  let peak = 0;
  const timer = setInterval(() => {
    const { rss, hwm } = memoryOf(child.pid);
    peak = Math.max(peak, rss, hwm);
  }, 100);
  const [code] = await once(child, 'close');
  clearInterval(timer);
  return { code, out, err, seconds: (performance.now() - started) / 1000, peak };
}

const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;
const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

const emulator = await startEmulator({
  port: 0,
  profile: 'deployed',
  adminKey: KEY,
  dbPath: join(work, 'emulator.db'),
});
const env = { KIS_BASE_URL: emulator.baseUrl, KIS_API_KEY: KEY };
try {
  const kis = createKisClient({ baseUrl: emulator.baseUrl, apiKey: KEY, logLevel: 'off' });
  const { ccPairId } = await kis.setupConnector({
    connector: {
      name: 'Bench',
      source: 'file',
      input_type: 'load_state',
      access_type: 'public',
      connector_specific_config: { file_locations: [] },
    },
  });
  const file = writeCorpus(DOCS);
  const pair = String(ccPairId);
  console.log(`pushing ${DOCS} documents into pair ${pair} with kis ingest…`);
  const pushed = await sampled([KIS, '--json', 'ingest', file, '--cc-pair', pair], env);
  if (pushed.code !== 0) throw new Error(`kis ingest failed: ${pushed.err}`);
  await emulator.indexer.idle({ timeoutMs: 600_000 });

  console.log('kis verify FILE…');
  const verified = await sampled([KIS, '--json', 'verify', file, '--cc-pair', pair], env);
  const summary = JSON.parse(verified.out.trim().split('\n').at(-1)).summary;
  if (verified.code !== 0)
    throw new Error(`kis verify exit ${verified.code}: ${verified.out.slice(-2000)}`);
  console.log('the bare loop of the same reads…');
  const bare = await sampled([BARE, emulator.baseUrl, KEY, pair, file, String(CONCURRENCY)]);
  const loop = JSON.parse(bare.out);
  if (loop.failed > 0 || loop.found !== DOCS) {
    throw new Error(`the bare loop found ${loop.found} of ${DOCS} (${loop.failed} failed)`);
  }

  console.log('sent again with the pair journal kis ingest kept…');
  let before = emulator.stats().ingestion.embeddings;
  const journaled = await sampled([KIS, '--json', 'ingest', file, '--cc-pair', pair], env);
  if (journaled.code !== 0) throw new Error(`kis ingest (again) failed: ${journaled.err}`);
  await emulator.indexer.idle({ timeoutMs: 600_000 });
  const journaledSummary = JSON.parse(journaled.out.trim().split('\n').at(-1)).summary;
  const journaledEmbeddings = emulator.stats().ingestion.embeddings - before;

  console.log('sent again without a journal (another machine)…');
  before = emulator.stats().ingestion.embeddings;
  const again = await sampled(
    [KIS, '--json', 'ingest', file, '--cc-pair', pair, '--no-journal'],
    env,
  );
  if (again.code !== 0) throw new Error(`kis ingest --no-journal failed: ${again.err}`);
  await emulator.indexer.idle({ timeoutMs: 600_000 });
  const embeddings = emulator.stats().ingestion.embeddings - before;

  const verifyRate = DOCS / verified.seconds;
  const bareRate = DOCS / bare.seconds;
  const result = {
    ...provenance(),
    documents: DOCS,
    concurrency: CONCURRENCY,
    verify: {
      seconds: round(verified.seconds),
      documents_per_second: Math.round(verifyRate),
      peak_rss_mb: mb(verified.peak),
      ms_per_document: round((verified.seconds * 1000) / DOCS, 3),
      checks: summary.checks,
      ok: summary.ok,
    },
    bare_loop: {
      seconds: round(bare.seconds),
      documents_per_second: Math.round(bareRate),
      peak_rss_mb: mb(bare.peak),
      ms_per_document: round((bare.seconds * 1000) / DOCS, 3),
    },
    verify_cost_vs_bare_loop: round(verified.seconds / bare.seconds),
    resend_with_journal: {
      documents: DOCS,
      skipped: journaledSummary.skipped,
      embeddings: journaledEmbeddings,
      target: 0,
    },
    resend_without_journal: {
      documents: DOCS,
      embeddings,
      target: 0,
      note:
        embeddings === 0
          ? "unchanged documents skipped by the server's hash gate: each line's doc_updated_at is sent as it is, no later than the stored one"
          : 'documents re-embedded although unchanged: the sent doc_updated_at was later than the stored one (compat §5)',
    },
  };
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/verify.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    [
      `kis verify of ${DOCS} documents: ${result.verify.documents_per_second}/s, ${result.verify.ms_per_document} ms/doc, peak RSS ${result.verify.peak_rss_mb} MB`,
      `bare loop of the same reads: ${result.bare_loop.documents_per_second}/s, ${result.bare_loop.ms_per_document} ms/doc, peak RSS ${result.bare_loop.peak_rss_mb} MB`,
      `kis verify costs ${result.verify_cost_vs_bare_loop}× the bare loop per document`,
      `a no-change re-send with the pair's journal: ${journaledSummary.skipped} skipped, ${journaledEmbeddings} embedding(s) (target 0)`,
      `a no-change re-send without a journal: ${embeddings} embedding(s) of ${DOCS} documents (target 0)`,
    ].join('\n'),
  );
} finally {
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
}
