// A request gate (`requestGate`): a limit shared with other processes, asked before every request
// of a bulk run, retries included, and released when the request ends; and `inFlight`, which
// counts requests on the wire, not documents waiting for one.
import { describe, expect, it } from 'vitest';
import type { IngestInput, RequestGate } from '../src/index.js';
import { client, json, mockFetch } from './helpers.js';

const doc = (n: number) => ({
  id: `g-${n}`,
  semantic_identifier: `G ${n}`,
  sections: [{ text: 'g' }],
  metadata: {},
});

/** A gate of `permits` that records how many were out at most. */
function countingGate(permits: number) {
  let out = 0;
  let most = 0;
  let asked = 0;
  const waiting: Array<() => void> = [];
  const grant = (resolve: (release: () => void) => void) => {
    out++;
    most = Math.max(most, out);
    resolve(() => {
      out--;
      waiting.shift()?.();
    });
  };
  const gate: RequestGate = {
    acquire: () =>
      new Promise((resolve) => {
        asked++;
        if (out < permits) grant(resolve);
        else waiting.push(() => grant(resolve));
      }),
  };
  return { gate, stats: () => ({ asked, most, out }) };
}

describe('a request gate', () => {
  it('is asked before every request, retries included, and holds its limit', async () => {
    let calls = 0;
    const { fetch } = mockFetch(async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 2));
      // every third request is refused once: retried through the gate again
      return calls % 3 === 0 ? json({ detail: 'busy' }, 503) : json({ already_existed: false });
    });
    const { gate, stats } = countingGate(2);
    const docs = Array.from({ length: 12 }, (_, n) => doc(n));
    const summary = await client(fetch)
      .ingestMany(docs, { requestGate: gate, concurrency: 8 })
      .done();
    expect(summary.created).toBe(12);
    expect(summary.retried).toBeGreaterThan(0);
    expect(stats()).toEqual({ asked: calls, most: 2, out: 0 });
  });

  it('counts in flight only requests on the wire, not a run waiting for its source', async () => {
    const { fetch } = mockFetch(async () => json({ already_existed: false }));
    let release!: () => void;
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* source(): AsyncGenerator<IngestInput> {
      yield doc(1);
      await hold; // a queue with no job: the run waits for its next document
      yield doc(2);
    }
    const run = client(fetch).ingestMany(source());
    const done = run.done();
    while (run.progress().created < 1) await new Promise((r) => setImmediate(r));
    expect(run.progress()).toMatchObject({ created: 1, inFlight: 0 });
    release();
    expect((await done).created).toBe(2);
  });
});
