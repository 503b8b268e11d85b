// The soak benchmark's baseline (bench/soak.mjs): a bare undici Pool sending the same JSONL stream
// to the same server, one POST per line's document, at most CONCURRENCY requests in flight. No
// client, no journal: what sending this stream costs at the least, to hold `kis ingest` against.
//   node bench/soak-pool.mjs BASE_URL FILE [CONCURRENCY=64]
// Prints `{ sent, failed, seconds }`; its RSS is read from /proc by bench/soak.mjs, as the CLI's.
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

// undici is the client's dependency, not the root's: the very copy `kis ingest` sends with
const { Pool } = createRequire(new URL('../packages/client/package.json', import.meta.url))(
  'undici',
);

const [baseUrl, file, concurrencyArg] = process.argv.slice(2);
const concurrency = Number(concurrencyArg ?? 64);
const url = new URL(`${baseUrl}/svc-api/ingestion`);
const pool = new Pool(url.origin, { connections: concurrency });
const headers = { authorization: 'Bearer soak-key', 'content-type': 'application/json' };

let inFlight = 0;
let sent = 0;
let failed = 0;
let wake;
const slotFree = () =>
  new Promise((resolve) => {
    wake = resolve;
  });

async function post(line) {
  // parsed and serialised again, as an app holding the document would send it (`kis ingest`
  // without --cc-pair sends `{ document }` too)
  const body = JSON.stringify({ document: JSON.parse(line) });
  const r = await pool.request({ path: url.pathname, method: 'POST', headers, body });
  await r.body.json();
  if (r.statusCode !== 200) failed++;
}

const started = performance.now();
// readline's iterator pauses the file while lines wait: memory stays bounded like the CLI's source
for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
  if (line === '') continue;
  while (inFlight >= concurrency) await slotFree();
  inFlight++;
  post(line)
    .catch(() => {
      failed++;
    })
    .finally(() => {
      inFlight--;
      sent++;
      wake?.();
    });
}
while (inFlight > 0) await slotFree();
await pool.close();
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ sent, failed, seconds })}\n`);
