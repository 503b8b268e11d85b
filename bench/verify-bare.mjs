// The verify benchmark's baseline (bench/verify.mjs): the same reads `kis verify FILE` makes, in a
// plain concurrent loop on a bare undici Pool: the pair's listing once, then per line's document
// its size info and one admin search for its text's words, at most CONCURRENCY documents at once.
// No client, no checks, no report: what these reads cost at the least.
//   node bench/verify-bare.mjs BASE_URL KEY CC_PAIR_ID FILE [CONCURRENCY=16]
// Prints `{ documents, found, failed, seconds }`; its RSS is read from /proc by bench/verify.mjs.
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

// undici is the client's dependency, not the root's: the very copy `kis verify` reads with
const { Pool } = createRequire(new URL('../packages/client/package.json', import.meta.url))(
  'undici',
);

const [baseUrl, key, ccPairId, file, concurrencyArg] = process.argv.slice(2);
const concurrency = Number(concurrencyArg ?? 16);
const api = new URL(baseUrl);
const pool = new Pool(api.origin, { connections: concurrency });
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

async function call(method, path, body) {
  const r = await pool.request({
    path: `${api.pathname}${path}`,
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = await r.body.json();
  return { status: r.statusCode, answer };
}

let inFlight = 0;
let documents = 0;
let found = 0;
let failed = 0;
let wake;
const slotFree = () =>
  new Promise((resolve) => {
    wake = resolve;
  });

async function check(line) {
  const doc = JSON.parse(line);
  const id = encodeURIComponent(doc.id);
  await call('GET', `/document/document-size-info?document_id=${id}`);
  // the text's words: the bench's texts are as short as the phrase kis verify searches for
  const query = doc.sections[0].text.match(/[\p{L}\p{N}_]+/gu).join(' ');
  const { answer } = await call('POST', '/admin/search', { query, filters: {} });
  if (answer.documents.slice(0, 10).some((d) => d.document_id === doc.id)) found++;
}

const started = performance.now();
await call('GET', `/svc-api/connector-docs/${ccPairId}`);
for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
  if (line === '') continue;
  while (inFlight >= concurrency) await slotFree();
  inFlight++;
  check(line)
    .catch(() => {
      failed++;
    })
    .finally(() => {
      inFlight--;
      documents++;
      wake?.();
    });
}
while (inFlight > 0) await slotFree();
await pool.close();
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ documents, found, failed, seconds })}\n`);
