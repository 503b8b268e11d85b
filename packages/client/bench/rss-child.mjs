// Streams KIS_COUNT generated documents through ingestMany (0 ms sink) and reports peak RSS,
// sampled every 20 ms and at checkpoints. KIS_MODE: `client` (ingestMany; KIS_CONCURRENCY fixed,
// or the client's adaptive default when unset), `raw-undici` or `raw-fetch` (a bare promise pool
// of KIS_CONCURRENCY over the same stream, no client).
// as an app imports the package: under Node, its undici sender
import { createKisClient } from '@kis/client';
import { Agent, request } from 'undici';

const count = Number(process.env.KIS_COUNT);
const fixed = process.env.KIS_CONCURRENCY ? Number(process.env.KIS_CONCURRENCY) : undefined;
const checkpoints = (process.env.KIS_CHECKPOINTS ?? '').split(',').filter(Boolean).map(Number);
const kis = createKisClient({
  baseUrl: process.env.KIS_BASE_URL,
  apiKey: 'bench-key',
  logLevel: 'off',
});
let peak = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 20);
function* documents() {
  for (let i = 0; i < count; i++) {
    yield {
      id: `bench-${i}`,
      semantic_identifier: `Benchmark document ${i}`,
      sections: [{ text: `Section text of generated document number ${i}. `.repeat(8) }],
      source: 'file',
      metadata: { batch: 'rss', n: String(i) },
    };
  }
}
const at = {};
let next = 0;
const started = performance.now();
const mode = process.env.KIS_MODE ?? 'client';
const headers = { authorization: 'Bearer bench-key', 'content-type': 'application/json' };
async function rawPool(post) {
  // the reference: a bare promise pool over the same stream, no client
  const it = documents();
  let done = 0;
  const worker = async () => {
    for (let n = it.next(); !n.done; n = it.next()) {
      await post(JSON.stringify({ document: n.value }));
      done++;
      if (next < checkpoints.length && done >= checkpoints[next]) {
        const rss = process.memoryUsage.rss();
        peak = Math.max(peak, rss);
        at[checkpoints[next]] = { rssMb: rss / 2 ** 20, peakMb: peak / 2 ** 20 };
        next++;
      }
    }
  };
  await Promise.all(Array.from({ length: fixed ?? 16 }, worker));
  return { created: done };
}
const url = `${process.env.KIS_BASE_URL}/svc-api/ingestion`;
const dispatcher = new Agent();
const rawPosts = {
  'raw-undici': async (body) => {
    const r = await request(url, { dispatcher, method: 'POST', headers, body });
    return r.body.json();
  },
  'raw-fetch': async (body) => {
    const r = await fetch(url, { method: 'POST', headers, body });
    return r.json();
  },
};
const summary = rawPosts[mode]
  ? await rawPool(rawPosts[mode])
  : await kis
      .ingestMany(documents(), {
        ...(fixed === undefined ? {} : { concurrency: fixed, adaptive: false }),
        onProgress: (p) => {
          if (next < checkpoints.length && p.done >= checkpoints[next]) {
            const rss = process.memoryUsage.rss();
            peak = Math.max(peak, rss);
            at[checkpoints[next]] = { rssMb: rss / 2 ** 20, peakMb: peak / 2 ** 20 };
            next++;
          }
        },
      })
      .done();
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage.rss());
await dispatcher.close();
process.send({
  peakMb: peak / 2 ** 20,
  at,
  summary,
  concurrency: summary.concurrency ?? { final: fixed ?? 16, min: fixed ?? 16, max: fixed ?? 16 },
  seconds: (performance.now() - started) / 1000,
});
