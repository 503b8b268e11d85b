// Streams KIS_COUNT generated documents through ingestMany (0 ms sink) and reports peak RSS,
// sampled every 20 ms and at checkpoints.
// as an app imports the package: under Node, its node:http sender
import { createKisClient } from '@kis/client';

const count = Number(process.env.KIS_COUNT);
const concurrency = Number(process.env.KIS_CONCURRENCY ?? 8);
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
const raw = process.env.KIS_MODE === 'raw';
async function rawPool() {
  // the reference: a bare fetch promise pool over the same stream, no client
  const it = documents();
  let done = 0;
  const url = `${process.env.KIS_BASE_URL}/svc-api/ingestion`;
  const worker = async () => {
    for (let n = it.next(); !n.done; n = it.next()) {
      const r = await fetch(url, {
        method: 'POST',
        headers: { authorization: 'Bearer bench-key', 'content-type': 'application/json' },
        body: JSON.stringify({ document: n.value }),
      });
      await r.json();
      done++;
      if (next < checkpoints.length && done >= checkpoints[next]) {
        const rss = process.memoryUsage.rss();
        peak = Math.max(peak, rss);
        at[checkpoints[next]] = { rssMb: rss / 2 ** 20, peakMb: peak / 2 ** 20 };
        next++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { created: done };
}
const summary = raw
  ? await rawPool()
  : await kis
      .ingestMany(documents(), {
        concurrency,
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
process.send({
  peakMb: peak / 2 ** 20,
  at,
  summary,
  seconds: (performance.now() - started) / 1000,
});
