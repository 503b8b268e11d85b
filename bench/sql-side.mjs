// One side of `pnpm bench:sql`, in its own process so that its peak RSS is its own: the SQL
// source (`ingest`, `sync`) or the same rows exported as JSONL (`jsonl`), through the client
// and @kis/node with their default settings, as `kis ingest|sync` will call them. Prints one JSON
// line: counts, seconds, peak RSS. Arguments: SIDE BASE_URL KEY PAIR JOURNAL [JSONL_FILE].
// The connection string comes from KIS_BENCH_SQL_URL, never from the command line.
import { createKisClient } from '@kis/client';
import { jsonlSource, openJournal, sqlSource, sync } from '@kis/node';

const [side, baseUrl, apiKey, pair, journalPath, file] = process.argv.slice(2);
const ccPairId = Number(pair);
export const MAPPING = {
  table: 'tickets',
  id: 'id',
  title: 'subject',
  text: 'body',
  metadata: ['status'],
  updatedAt: 'updated_at',
  link: 'https://crm.example.com/ticket/{id}',
  idPrefix: 'crm/',
};

const kis = createKisClient({ baseUrl, apiKey, logLevel: 'off' });
const journal = openJournal(journalPath);
const started = performance.now();
let out;
if (side === 'jsonl') {
  const summary = await kis.ingestMany(jsonlSource(file), { ccPairId, journal }).done();
  out = { stored: summary.created + summary.updated, failed: summary.failed };
} else {
  const source = sqlSource({
    connection: process.env.KIS_BENCH_SQL_URL,
    ...MAPPING,
    state: journal,
  });
  if (side === 'ingest') {
    const summary = await kis.ingestMany(source, { ccPairId, journal }).done();
    out = {
      stored: summary.created + summary.updated,
      failed: summary.failed,
      cursor_kept: await source.finish(summary),
    };
  } else {
    const session = await sync(kis, source, { ccPairId, owns: source.owns, journal, prune: true });
    const summary = await session.run().done();
    out = {
      mode: source.window?.mode,
      created: summary.created,
      updated: summary.updated,
      deleted: summary.deleted,
      failed: summary.failed,
      cursor_kept: await source.finish(summary),
    };
  }
}
journal.close();
const seconds = (performance.now() - started) / 1000;
// maxRSS is in KiB
console.log(
  JSON.stringify({ side, ...out, seconds, peak_rss_mb: process.resourceUsage().maxRSS / 1024 }),
);
process.exit(0);
