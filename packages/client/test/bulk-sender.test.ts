// The bulk sender alone (internal/bulk/sender.ts): one document's retry loop against a mock
// fetch, with its slots, the outage gate, the request gate, the retry budget and the run's stops.
import { describe, expect, it } from 'vitest';
import { callContext } from '../src/client.js';
import type { IngestAttempt, IngestManyOptions, RequestGate } from '../src/index.js';
import { RunCounters } from '../src/internal/bulk/counters.js';
import { Hedger } from '../src/internal/bulk/hedge.js';
import { OutageGate } from '../src/internal/bulk/outage.js';
import { prepareIngestion } from '../src/internal/bulk/prepare.js';
import { RunControl } from '../src/internal/bulk/run-control.js';
import { RunLimit } from '../src/internal/bulk/run-limit.js';
import { RunRelease } from '../src/internal/bulk/run-release.js';
import { DocumentSender } from '../src/internal/bulk/sender.js';
import { Slots } from '../src/internal/bulk/slots.js';
import { API_KEY, BASE, doc, type Handler, json, mockFetch } from './helpers.js';

const stored = () => json({ already_existed: false, document_id: 'doc-1' });
const busy = (status: number) => json({ detail: 'busy' }, status, { 'retry-after': '0' });

/** A sender on a run of its own parts; `send` sends doc-1 holding its first slot, as runs do. */
function senderOn(handler: Handler, options: IngestManyOptions = {}) {
  const { fetch, calls } = mockFetch(handler);
  const ctx = callContext({ baseUrl: BASE, apiKey: API_KEY, fetch, logLevel: 'off' });
  const control = new RunControl(ctx.log);
  const limit = new RunLimit({ concurrency: 2, ...options });
  const slots = new Slots(() => limit.current());
  const counters = new RunCounters();
  const gate = new OutageGate({ maxOutageMs: options.maxOutageMs });
  // the release is the run's question, not the sender's: answered here without a request
  const release = new RunRelease({ ...ctx, release: async () => undefined });
  const sender = new DocumentSender(
    ctx,
    { control, counters, limit, slots, gate, hedger: new Hedger(), release },
    options,
  );
  const send = () => {
    const slot = { held: slots.tryAcquire() };
    return sender.send(prepareIngestion(doc(1), null, true), slot);
  };
  return { send, calls, control, counters, slots };
}

describe('the bulk sender', () => {
  it('sends once when the first answer is a 2xx, and frees its slot', async () => {
    const s = senderOn(stored);
    expect(await s.send()).toEqual({ attempts: 1, documentId: 'doc-1', alreadyExisted: false });
    expect(s.calls).toHaveLength(1);
    expect(s.slots.inUse).toBe(0);
    expect(s.counters).toMatchObject({ onWire: 0, retried: 0 });
  });

  it('retries what can be retried, one request per attempt, each reported', async () => {
    const attempts: IngestAttempt[] = [];
    const answers = [busy(503), busy(429)];
    const s = senderOn(() => answers.shift() ?? stored(), { onAttempt: (a) => attempts.push(a) });
    expect(await s.send()).toMatchObject({ attempts: 3, documentId: 'doc-1' });
    // the transport does not retry on its own: the sender's loop is the only one
    expect(s.calls).toHaveLength(3);
    expect(attempts.map((a) => a.status)).toEqual([503, 429, 200]);
    expect(attempts[0]?.retryAfterMs).toBe(0);
    expect(s.counters.retried).toBe(2);
    expect(s.slots.inUse).toBe(0);
  });

  it('ends at a final answer without stopping the run', async () => {
    const s = senderOn(() => json({ detail: 'bad document' }, 400));
    const sent = await s.send();
    expect(sent).toMatchObject({ attempts: 1 });
    expect(sent.aborted).toBeUndefined();
    expect(sent.error?.status).toBe(400);
    expect(s.control.stopped).toBeUndefined();
  });

  it('stops the run at an answer no document can get past (a rejected key)', async () => {
    const s = senderOn(() => json({ detail: 'Invalid API key' }, 401));
    expect((await s.send()).error?.status).toBe(401);
    expect(s.control.stopped?.reason).toBe('refused');
    expect(s.control.cancelled).toBe(true);
  });

  it('gives up when the retry cap is spent', async () => {
    const s = senderOn(() => busy(503), { maxRetries: 1 });
    const sent = await s.send();
    expect(sent.attempts).toBe(2);
    expect(sent.error?.message).toContain('Gave up after 2 attempts.');
    expect(sent.error?.status).toBe(503);
  });

  it('asks the request gate before every attempt and releases each permit', async () => {
    let asked = 0;
    let out = 0;
    const gate: RequestGate = {
      acquire: async () => {
        asked++;
        out++;
        return () => {
          out--;
        };
      },
    };
    const answers = [busy(503)];
    const s = senderOn(() => answers.shift() ?? stored(), { requestGate: gate });
    expect((await s.send()).attempts).toBe(2);
    expect({ asked, out }).toEqual({ asked: 2, out: 0 });
  });

  it('ends a document waiting to retry as aborted when the run stops', async () => {
    const s = senderOn(() => json({ detail: 'busy' }, 503, { 'retry-after': '60' }));
    const pending = s.send();
    while (s.counters.retried === 0) await new Promise((r) => setTimeout(r, 1));
    s.control.stop();
    const sent = await pending;
    expect(sent).toMatchObject({ attempts: 1, aborted: true });
    expect(sent.error?.message).toContain('stopped before this document was stored');
    expect(s.slots.inUse).toBe(0);
  });
});
