// `pnpm bench:sql`: `kis ingest postgres://…` with default flags, from a private PostgreSQL into
// the emulator, against `kis ingest tickets.jsonl` of the same rows exported as JSONL (each a
// process of its own, each into a fresh emulator): 10^6 rows, rate ≥ 0.9×, peak RSS ≤ 1.2×; then
// `kis sync postgres://… --prune` after 1,000 updates and 100 deletes: exactly 1,100 requests
// (1,000 ingestions, 100 deletions). Prints the figures and writes bench/results/sql.json; never
// fails on time. `--rows=N` for a smaller run (updates and deletes scale down with it).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '@kis/emulator';
import { runKis } from './lib/kis-process.mjs';
import { startPostgres } from './lib/postgres.mjs';
import { judged, said } from './lib/targets.mjs';
import { provenance } from './provenance.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KEY = 'kis-bench-sql-admin-key-0123456789';
const ROWS = Number(process.argv.find((a) => a.startsWith('--rows='))?.slice(7) ?? 1_000_000);
const UPDATES = Math.min(1_000, Math.floor(ROWS / 100));
const DELETES = Math.min(100, Math.floor(ROWS / 1_000) || 1);
const work = mkdtempSync(join(tmpdir(), 'kis-bench-sql-'));
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
/** The mapping of the rows, as a user writes it (the JSONL export below builds the same documents). */
const MAPPING = [
  '--table',
  'tickets',
  '--id',
  'id',
  '--title',
  'subject',
  '--text',
  'body',
  '--metadata',
  'status',
  '--updated-at',
  'updated_at',
  '--link',
  'https://crm.example.com/ticket/{id}',
  '--namespace',
  'crm/',
];

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
  const env = { KIS_BASE_URL: emulator.baseUrl, KIS_API_KEY: KEY };
  return { emulator, pair: String(ccPairId), env };
}

/** One `kis` run in the work folder (the pair's journal under .kis/), exit 0 required. */
async function kis(name, args, env) {
  const run = await runKis(args, { env, cwd: work });
  if (run.code !== 0) throw new Error(`${name}: kis exited with ${run.code}: ${run.stderr}`);
  return run;
}

const side = (run) => ({
  stored: (run.summary.created ?? 0) + (run.summary.updated ?? 0),
  failed: run.summary.failed,
  seconds: round(run.seconds, 3),
  peak_rss_mb: round(run.peak_rss_mb, 1),
});

const db = await startPostgres();
let emulator;
try {
  console.log(
    `kis ingest of ${ROWS} rows of PostgreSQL into the emulator (Node ${process.version})`,
  );
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
  const jsonlServer = await freshPair('jsonl');
  const jsonlRun = side(
    await kis('jsonl', ['ingest', jsonl, '--cc-pair', jsonlServer.pair], jsonlServer.env),
  );
  await jsonlServer.emulator.close();
  const sqlServer = await freshPair('sql');
  emulator = sqlServer.emulator;
  const { pair, env } = sqlServer;
  const sqlRun = side(await kis('sql', ['ingest', db.url, ...MAPPING, '--cc-pair', pair], env));
  const rate = (r) => r.stored / r.seconds;
  const rateRatio = round(rate(sqlRun) / rate(jsonlRun));
  const rssRatio = round(sqlRun.peak_rss_mb / jsonlRun.peak_rss_mb);
  for (const [name, r] of [
    ['JSONL', jsonlRun],
    ['SQL  ', sqlRun],
  ]) {
    console.log(
      `${name}: ${r.stored} in ${round(r.seconds)} s (${round(rate(r))}/s), peak RSS ${r.peak_rss_mb} MB`,
    );
  }

  const every = Math.floor(ROWS / UPDATES);
  await db.sql(`UPDATE tickets SET body = body || ' Edited.', updated_at = now() WHERE id % ${every} = 0;
    DELETE FROM tickets WHERE id IN (SELECT id FROM tickets WHERE id % ${every} <> 0 ORDER BY id LIMIT ${DELETES});`);
  const before = emulator.stats().ingestion.requests;
  const syncRun = await kis(
    'sync',
    ['sync', db.url, ...MAPPING, '--cc-pair', pair, '--prune'],
    env,
  );
  const ingestions = emulator.stats().ingestion.requests - before;
  const deletions = syncRun.lines.filter((l) => l.action === 'delete').length;
  const requests = ingestions + deletions + (syncRun.summary.retried ?? 0);
  const targets = {
    rate_vs_jsonl: judged(rateRatio, '>= 0.9'),
    peak_rss_vs_jsonl: judged(rssRatio, '<= 1.2'),
    incremental_requests: judged(requests, `= ${UPDATES + DELETES}`),
  };
  console.log(
    `rate SQL ÷ JSONL = ${rateRatio} (${said(targets.rate_vs_jsonl)}); peak RSS SQL ÷ JSONL = ${rssRatio} (${said(targets.peak_rss_vs_jsonl)})`,
  );
  console.log(
    `kis sync --prune after ${UPDATES} updates and ${DELETES} deletes: ${requests} requests (${ingestions} ingestions, ${deletions} deletions; ${said(targets.incremental_requests)}) in ${round(syncRun.seconds)} s, peak RSS ${round(syncRun.peak_rss_mb, 1)} MB`,
  );
  const results = {
    ...provenance(),
    rows: ROWS,
    jsonl: jsonlRun,
    sql: sqlRun,
    incremental: {
      updates: UPDATES,
      deletes: DELETES,
      ingestions,
      deletions,
      seconds: round(syncRun.seconds, 3),
      summary: syncRun.summary,
    },
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
