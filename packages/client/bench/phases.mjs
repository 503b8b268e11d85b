// One benchmark phase, run in its own process by run.mjs (so JIT and GC state of one phase do not
// bleed into the next), against the sinks run.mjs started.
import http from 'node:http';
// the package as an app imports it: under Node, its undici sender
import { createKisClient } from '@kis/client';
// the references: undici as an app would use it by hand (the library the Node sender is built on)
import { Agent, request } from 'undici';
// the browser-safe core, which sends with fetch (what browsers, Deno, Bun and workers get)
import { createKisClient as createFetchClient } from '../dist/index.js';

const quick = process.env.KIS_BENCH_QUICK === '1';
const KEY = 'bench-key-0123456789';

const documentAt = (i) => ({
  id: `bench-${i}`,
  semantic_identifier: `Benchmark document ${i}`,
  sections: [{ text: `Section text of generated document number ${i}.` }],
  source: 'file',
  metadata: { batch: 'bench' },
});

// 1. per-call overhead: typed client vs bare fetch, bare undici `request` and bare node:http,
// sequential calls, CPU time of this process.
// The kinds take turns in blocks of 50 calls (200 turns each for 10,000 calls), in a rotating
// order, so the machine's drift (other processes, CPU steal, GC) falls on all of them alike; the
// ratio is of the sums.
async function overhead(sink) {
  const calls = quick ? 2_000 : 10_000;
  const block = 50;
  const url = `${sink.url}/svc-api/ingestion`;
  const kis = createKisClient({ baseUrl: sink.url, apiKey: KEY, logLevel: 'off' });
  const kisFetch = createFetchClient({ baseUrl: sink.url, apiKey: KEY, logLevel: 'off' });
  const agent = new http.Agent({ keepAlive: true });
  const dispatcher = new Agent();
  const bodies = Array.from({ length: block }, (_, i) => ({
    document: documentAt(i),
    cc_pair_id: 1,
  }));
  // bare fetch, and with an AbortSignal: what any time-out costs in undici
  const bareFetch = (signal) => async () => {
    for (const body of bodies) {
      const r = await fetch(url, {
        signal,
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!r.ok) throw new Error(`bare fetch: ${r.status}`);
      await r.json();
    }
  };
  const kinds = {
    bare: bareFetch(undefined),
    bareWithSignal: bareFetch(new AbortController().signal),
    bareHttp: async () => {
      for (const body of bodies) await httpPost(agent, url, JSON.stringify(body));
    },
    bareUndici: async () => {
      for (const body of bodies) await undiciPost(dispatcher, url, JSON.stringify(body));
    },
    typed: async () => {
      for (const body of bodies) await kis.ingestion.ingest(body);
    },
    typedFetch: async () => {
      for (const body of bodies) await kisFetch.ingestion.ingest(body);
    },
    raw: async () => {
      for (const body of bodies) {
        const r = await kis.api.POST('/svc-api/ingestion', { body });
        if (!r.data) throw new Error('api');
      }
    },
    workflow: async () => {
      for (const body of bodies) await kis.ingestDocument(body.document, { ccPairId: 1 });
    },
  };
  for (let i = 0; i < 10; i++) for (const f of Object.values(kinds)) await f(); // warm-up
  const sum = Object.fromEntries(Object.keys(kinds).map((k) => [k, 0]));
  const order = Object.entries(kinds);
  for (let turn = 0; turn < calls / block; turn++) {
    // the order rotates, so the garbage one kind leaves is collected during each kind alike
    for (let k = 0; k < order.length; k++) {
      const [name, f] = order[(turn + k) % order.length];
      const c0 = process.cpuUsage();
      await f();
      const c = process.cpuUsage(c0);
      sum[name] += (c.user + c.system) / 1000;
    }
  }
  agent.destroy();
  await dispatcher.close();
  return {
    calls,
    cpu_ms: sum,
    overhead_ratio: sum.typed / sum.bare,
    overhead_ratio_vs_bare_undici: sum.typed / sum.bareUndici,
    overhead_ratio_vs_bare_http: sum.typed / sum.bareHttp,
    overhead_ratio_fetch_sender: sum.typedFetch / sum.bare,
    overhead_ratio_fetch_sender_vs_fetch_with_signal: sum.typedFetch / sum.bareWithSignal,
    fetch_with_signal_ratio: sum.bareWithSignal / sum.bare,
    overhead_ratio_raw_api: sum.raw / sum.bare,
    overhead_ratio_ingest_document: sum.workflow / sum.bare,
  };
}

/** A promise pool: `concurrency` workers sending `docs` with `post(body)`, one at a time each. */
async function pool(docs, concurrency, post) {
  let next = 0;
  const worker = async () => {
    while (next < docs.length) {
      const i = next++;
      await post(JSON.stringify({ document: docs[i], cc_pair_id: 1 }));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** One POST with bare fetch, the answer parsed. */
async function fetchPost(url, body) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body,
  });
  if (!r.ok) throw new Error(`bare fetch: ${r.status}`);
  return r.json();
}

/** One POST with undici's `request` on a dispatcher (an Agent), the answer parsed. */
async function undiciPost(dispatcher, url, body) {
  const r = await request(url, {
    dispatcher,
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body,
  });
  if (r.statusCode !== 200) throw new Error(`bare undici: ${r.statusCode}`);
  return r.body.json();
}

/** One POST with bare node:http (keep-alive agent), the answer parsed: the floor under Node. */
function httpPost(agent, url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${KEY}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`bare http: ${res.statusCode}`));
          else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// 2. ingestMany vs raw promise pools of the same fixed concurrency (undici `request`, fetch,
// node:http) over 7 interleaved rounds, ingestMany and the undici pool back to back in each (a
// pair): the ratio of the medians (the target's figure) and of the best runs, and this process's
// CPU time. ingestMany runs at that fixed concurrency too (`adaptive: false`): its default limit
// adapts to the server, which a fixed pool does not.
async function throughput(sink, count, concurrency) {
  const kis = createKisClient({ baseUrl: sink.url, apiKey: KEY, logLevel: 'off' });
  const kisFetch = createFetchClient({ baseUrl: sink.url, apiKey: KEY, logLevel: 'off' });
  const docs = Array.from({ length: count }, (_, i) => documentAt(i));
  const url = `${sink.url}/svc-api/ingestion`;
  // one connection pool each for the whole phase, as each client keeps its own
  const dispatcher = new Agent();
  const agent = new http.Agent({ keepAlive: true });
  const cpu = Object.fromEntries(
    ['many', 'undiciPool', 'fetchPool', 'httpPool', 'manyFetch'].map((k) => [k, []]),
  );
  const timed = (f) => async () => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  const ingestMany = (client) =>
    timed(async () => {
      const s = await client.ingestMany(docs, { concurrency, adaptive: false, ccPairId: 1 }).done();
      if (s.created !== count) throw new Error(`ingestMany: ${JSON.stringify(s)}`);
    });
  const kinds = {
    many: ingestMany(kis),
    undiciPool: timed(() => pool(docs, concurrency, (body) => undiciPost(dispatcher, url, body))),
    fetchPool: timed(() => pool(docs, concurrency, (body) => fetchPost(url, body))),
    httpPool: timed(() => pool(docs, concurrency, (body) => httpPost(agent, url, body))),
    manyFetch: ingestMany(kisFetch),
  };
  for (const f of Object.values(kinds)) await f(); // warm-up
  const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  // interleaved rounds: drift on the shared machine falls on every kind alike; the medians and the
  // best of each are taken (the best run is the least disturbed)
  const rounds = 7;
  for (let r = 0; r < rounds; r++) {
    for (const [k, f] of Object.entries(kinds)) {
      const c0 = process.cpuUsage();
      times[k].push(await f());
      const c = process.cpuUsage(c0);
      cpu[k].push((c.user + c.system) / 1000);
    }
  }
  await dispatcher.close();
  agent.destroy();
  const best = (k) => Math.min(...times[k]);
  const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const rate = (k) => (count * 1000) / best(k);
  return {
    count,
    concurrency,
    adaptive: false,
    rounds,
    docs_per_s_ingest_many: rate('many'),
    docs_per_s_raw_undici_pool: rate('undiciPool'),
    docs_per_s_raw_fetch_pool: rate('fetchPool'),
    docs_per_s_raw_http_pool: rate('httpPool'),
    docs_per_s_ingest_many_fetch_sender: rate('manyFetch'),
    ratio_vs_raw_undici_pool: best('undiciPool') / best('many'),
    ratio_vs_raw_fetch_pool: best('fetchPool') / best('many'),
    ratio_vs_raw_http_pool: best('httpPool') / best('many'),
    ratio_fetch_sender_vs_raw_fetch_pool: best('fetchPool') / best('manyFetch'),
    // the same ratios of the medians, and of this process's median CPU time per run
    median_ratio_vs_raw_undici_pool: median(times.undiciPool) / median(times.many),
    cpu_ratio_vs_raw_undici_pool: median(cpu.many) / median(cpu.undiciPool),
    times_ms: times,
    cpu_ms: cpu,
  };
}

// 3. ingestMany (concurrency 16) vs a sequential loop of ingestDocument, 20 ms sink
async function vsSequential(sink) {
  const kis = createKisClient({ baseUrl: sink.url, apiKey: KEY, logLevel: 'off' });
  const seqCount = quick ? 100 : 250;
  const manyCount = quick ? 1_000 : 2_500;
  const t0 = performance.now();
  for (let i = 0; i < seqCount; i++) await kis.ingestDocument(documentAt(i), { ccPairId: 1 });
  const seqRate = (seqCount * 1000) / (performance.now() - t0);
  const docs = Array.from({ length: manyCount }, (_, i) => documentAt(i));
  const t1 = performance.now();
  await kis.ingestMany(docs, { concurrency: 16, adaptive: false, ccPairId: 1 }).done();
  const manyRate = (manyCount * 1000) / (performance.now() - t1);
  return {
    sequential_docs_per_s: seqRate,
    ingest_many_docs_per_s: manyRate,
    ratio: manyRate / seqRate,
  };
}

const [phase, fastUrl, slowUrl] = process.argv.slice(2);
const fast = { url: fastUrl };
const slow = { url: slowUrl };
let result;
if (phase === 'overhead') result = await overhead(fast);
else if (phase === 'throughput0') result = await throughput(fast, quick ? 3_000 : 10_000, 16);
else if (phase === 'throughput20') result = await throughput(slow, quick ? 1_000 : 3_000, 16);
else if (phase === 'sequential') result = await vsSequential(slow);
else throw new Error(`unknown phase ${phase}`);
process.send(result);
