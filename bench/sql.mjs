// `pnpm bench:sql`: the SQL source (@kis/node) on a private PostgreSQL into the emulator, each
// side in its own process (bench/sql-side.mjs), as `kis ingest|sync postgres://…` will run it:
// 10^6 rows ingested with the default settings, against the same rows exported as JSONL through
// `jsonlSource` (rate ≥ 0.9×, peak RSS ≤ 1.2×); then a sync after 1,000 updates and 100 deletes
// (exactly 1,000 sent and 100 deleted). Prints the figures and writes bench/results/sql.json;
// never fails on time. `--rows=N` for a smaller run (updates and deletes scale down with it).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '@kis/emulator';
import { startPostgres } from './lib/postgres.mjs';
import { judged, said } from './lib/targets.mjs';
import { provenance } from './provenance.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SIDE = join(root, 'bench/sql-side.mjs');
const KEY = 'kis-bench-sql-admin-key-0123456789';
const ROWS = Number(process.argv.find((a) => a.startsWith('--rows='))?.slice(7) ?? 1_000_000);
const UPDATES = Math.min(1_000, Math.floor(ROWS / 100));
const DELETES = Math.min(100, Math.floor(ROWS / 1_000) || 1);
const work = mkdtempSync(join(tmpdir(), 'kis-bench-sql-'));
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** One side in its own process; resolves with the JSON line it prints. */
function side(name, baseUrl, pair, journal, env, file) {
  return new Promise((resolve, reject) => {
    const args = [SIDE, name, baseUrl, KEY, String(pair), journal, ...(file ? [file] : [])];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line) reject(new Error(`${name} side exited with ${code}`));
      else resolve(JSON.parse(line));
    });
  });
}

/** The SQL source ingesting the table (the CLI later: `kis ingest postgres://… --table tickets …`). */
const sqlIngest = (ctx, pair) =>
  side('ingest', ctx.baseUrl, pair, join(work, `sql-${pair}.jsonl`), ctx.env);
/** The same rows as JSONL (the CLI later: `kis ingest tickets.jsonl`). */
const jsonlIngest = (ctx, pair) =>
  side('jsonl', ctx.baseUrl, pair, join(work, `jsonl-${pair}.jsonl`), {}, ctx.jsonl);
/** A sync of the SQL source with prune (the CLI later: `kis sync postgres://… --prune`). */
const sqlSync = (ctx, pair) =>
  side('sync', ctx.baseUrl, pair, join(work, `sql-${pair}.jsonl`), ctx.env);

/** A pair on a fresh emulator: each side starts from an empty server (inserts slow as it fills). */
async function freshPair(name) {
  const emulator = await startEmulator({ adminKey: KEY, dbPath: ':memory:' });
  const { createKisClient } = await import('@kis/client');
  const kis = createKisClient({ baseUrl: emulator.baseUrl, apiKey: KEY, logLevel: 'off' });
  const { ccPairId } = await kis.setupConnector({
    connector: {
      name,
      source: 'ingestion_api',
      input_type: 'load_state',
      access_type: 'public',
      connector_specific_config: {},
    },
  });
  return { emulator, pair: ccPairId };
}

const db = await startPostgres();
let emulator;
try {
  console.log(`SQL source: ${ROWS} rows of PostgreSQL into the emulator (Node ${process.version})`);
  await db.sql(`CREATE TABLE tickets AS
    SELECT n AS id, 'Ticket ' || n AS subject,
           repeat('The body of generated ticket ' || n || '. ', 6) AS body,
           (ARRAY['open', 'pending', 'closed'])[1 + n % 3] AS status,
           timestamptz '2024-01-01' + n * interval '1 second' AS updated_at
    FROM generate_series(1, ${ROWS}) AS n;
    ALTER TABLE tickets ADD PRIMARY KEY (id);`);
  const jsonl = join(work, 'tickets.jsonl');
  // the documents the SQL source builds, as a JSONL export of the same rows (ids of their own:
  // both sides create)
  await db.sql(`\\o ${jsonl}
    SELECT json_build_object('id', 'jsonl/' || id, 'semantic_identifier', subject, 'title', subject,
      'sections', json_build_array(json_build_object('text', body, 'link', 'https://crm.example.com/ticket/' || id)),
      'source', 'ingestion_api', 'metadata', json_build_object('status', status),
      'doc_updated_at', to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    FROM tickets ORDER BY id;
    \\o`);
  const env = { KIS_BENCH_SQL_URL: db.url };
  const jsonlServer = await freshPair('jsonl');
  const jsonlRun = await jsonlIngest(
    { baseUrl: jsonlServer.emulator.baseUrl, jsonl },
    jsonlServer.pair,
  );
  await jsonlServer.emulator.close();
  const sqlServer = await freshPair('sql');
  emulator = sqlServer.emulator;
  const ctx = { baseUrl: emulator.baseUrl, env };
  const sqlRun = await sqlIngest(ctx, sqlServer.pair);
  const rate = (r) => r.stored / r.seconds;
  const rateRatio = round(rate(sqlRun) / rate(jsonlRun));
  const rssRatio = round(sqlRun.peak_rss_mb / jsonlRun.peak_rss_mb);
  console.log(
    `JSONL: ${jsonlRun.stored} in ${round(jsonlRun.seconds)} s (${round(rate(jsonlRun))}/s), peak RSS ${round(jsonlRun.peak_rss_mb)} MB`,
  );
  console.log(
    `SQL:   ${sqlRun.stored} in ${round(sqlRun.seconds)} s (${round(rate(sqlRun))}/s), peak RSS ${round(sqlRun.peak_rss_mb)} MB`,
  );

  await db.sql(`UPDATE tickets SET body = body || ' Edited.', updated_at = now() WHERE id % ${Math.floor(ROWS / UPDATES)} = 0 AND id <= ${UPDATES * Math.floor(ROWS / UPDATES)};
    DELETE FROM tickets WHERE id IN (SELECT id FROM tickets WHERE id % ${Math.floor(ROWS / UPDATES)} <> 0 ORDER BY id LIMIT ${DELETES});`);
  const before = emulator.stats().ingestion.requests;
  const syncRun = await sqlSync(ctx, sqlServer.pair);
  const sent = emulator.stats().ingestion.requests - before;
  const targets = {
    rate_vs_jsonl: judged(rateRatio, '>= 0.9'),
    peak_rss_vs_jsonl: judged(rssRatio, '<= 1.2'),
    incremental_sent: judged(sent, `= ${UPDATES}`),
    incremental_deleted: judged(syncRun.deleted, `= ${DELETES}`),
  };
  console.log(
    `rate SQL ÷ JSONL = ${rateRatio} (${said(targets.rate_vs_jsonl)}); peak RSS SQL ÷ JSONL = ${rssRatio} (${said(targets.peak_rss_vs_jsonl)})`,
  );
  console.log(
    `sync after ${UPDATES} updates and ${DELETES} deletes (${syncRun.mode}): ${sent} sent (${said(targets.incremental_sent)}), ${syncRun.deleted} deleted (${said(targets.incremental_deleted)}) in ${round(syncRun.seconds)} s`,
  );
  const results = {
    ...provenance(),
    rows: ROWS,
    jsonl: jsonlRun,
    sql: sqlRun,
    incremental: { updates: UPDATES, deletes: DELETES, sent, ...syncRun },
    targets,
    load_average_after: loadavg().map((n) => round(n)),
  };
  const out = join(root, 'bench/results/sql.json');
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${out}`);
} finally {
  await emulator?.close();
  await db.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
