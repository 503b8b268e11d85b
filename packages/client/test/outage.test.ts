// The outage gate of bulk runs: when it pauses, who probes, when it resumes and gives up.
import { describe, expect, it } from 'vitest';
import { abortRegistry } from '../src/internal/abort.js';
import { OutageGate } from '../src/internal/bulk/outage.js';

function registry(): { signal: AbortSignal; add(a: () => void): () => void; abort(): void } {
  const run = abortRegistry();
  return { signal: run.signal, add: run.add, abort: () => run.abort(new Error('stopped')) };
}

describe('OutageGate', () => {
  it('pauses only after a quiet spell with failures, and resumes on the first success', () => {
    let now = 0;
    const changes: boolean[] = [];
    const gate = new OutageGate({ now: () => now, onChange: (p) => changes.push(p) });
    gate.failure('connection refused');
    gate.failure('connection refused');
    now = 10_000;
    expect(gate.paused).toBe(false); // no failure seen since the spell began
    gate.failure('connection refused');
    expect(gate.paused).toBe(true);
    expect(gate.reason).toBe('connection refused');
    now = 25_000;
    expect(gate.pausedMs()).toBe(15_000);
    gate.success();
    expect(gate.paused).toBe(false);
    expect(gate.pausedMs()).toBe(15_000);
    expect(changes).toEqual([true, false]);
  });

  it('does not pause while some requests succeed, however many fail', () => {
    let now = 0;
    const gate = new OutageGate({ now: () => now });
    for (let i = 0; i < 1000; i++) {
      now += 100;
      gate.failure('503');
      if (i % 20 === 0) gate.success();
    }
    expect(gate.paused).toBe(false);
  });

  it('is exhausted once a pause outlasts maxOutageMs', () => {
    let now = 0;
    const gate = new OutageGate({ now: () => now, maxOutageMs: 60_000 });
    now = 6_000;
    for (let i = 0; i < 3; i++) gate.failure('reset');
    expect(gate.paused).toBe(true);
    now = 66_000;
    expect(gate.exhausted()).toBe(false);
    now = 66_001;
    expect(gate.exhausted()).toBe(true);
  });

  it('lets one document probe at a time while paused, and all through after the resume', async () => {
    let now = 0;
    const gate = new OutageGate({ now: () => now, maxProbeDelayMs: 1 });
    now = 6_000;
    for (let i = 0; i < 3; i++) gate.failure('refused');
    const run = registry();
    const admitted: number[] = [];
    const waiting = [1, 2, 3].map((n) => gate.admit(run).then(() => admitted.push(n)));
    await new Promise((r) => setTimeout(r, 20));
    expect(admitted).toEqual([1]); // the probe
    gate.failure('refused'); // the probe failed: the next one probes
    await new Promise((r) => setTimeout(r, 20));
    expect(admitted).toEqual([1, 2]);
    gate.success(); // the server is back
    await Promise.all(waiting);
    expect(admitted).toEqual([1, 2, 3]);
  });

  it('releases waiters when the run stops', async () => {
    let now = 0;
    const gate = new OutageGate({ now: () => now, maxProbeDelayMs: 1 });
    now = 6_000;
    for (let i = 0; i < 3; i++) gate.failure('refused');
    const run = registry();
    const first = gate.admit(run);
    const second = gate.admit(run);
    await first;
    run.abort();
    await expect(second).rejects.toThrow('stopped');
  });
});
