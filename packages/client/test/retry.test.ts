import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  InternalServerError,
  RateLimitError,
} from '../src/index.js';
import { backoffDelayMs, retryAfterMs } from '../src/internal/backoff.js';
import { client, doc, json, mockFetch } from './helpers.js';

const connRefused = () =>
  Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
  });
const connReset = () =>
  Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
  });

afterEach(() => {
  vi.useRealTimers();
});

describe('retry policy', () => {
  it.each([408, 409, 429, 500, 502, 503, 504])('retries %i, then succeeds', async (status) => {
    const { fetch, calls } = mockFetch((_c, i) =>
      i < 2
        ? json({ detail: 'busy' }, status)
        : json({ already_existed: false, document_id: 'doc-1' }),
    );
    const kis = client(fetch);
    const r = await kis.ingestion.ingest({ document: doc(1) });
    expect(r.already_existed).toBe(false);
    expect(calls).toHaveLength(3);
    expect(calls.map((c) => c.headers.get('x-kis-retry-count'))).toEqual(['0', '1', '2']);
  });

  it.each([400, 401, 403, 404, 413, 422])('does not retry %i', async (status) => {
    const { fetch, calls } = mockFetch(() => json({ detail: 'no' }, status));
    const kis = client(fetch);
    await expect(kis.ingestion.ingest({ document: doc(1) })).rejects.toMatchObject({ status });
    expect(calls).toHaveLength(1);
  });

  it('gives up after maxRetries (client default 2) with the last error', async () => {
    const { fetch, calls } = mockFetch(() => json({ detail: 'down' }, 503));
    const kis = client(fetch);
    const err = await kis.ingestion.list().catch((e) => e);
    expect(InternalServerError.isInstance(err)).toBe(true);
    expect(calls).toHaveLength(3);
  });

  it('maxRetries per request overrides the client', async () => {
    const { fetch, calls } = mockFetch(() => json({ detail: 'down' }, 503));
    const kis = client(fetch, { maxRetries: 5 });
    await kis.ingestion.list({ maxRetries: 0 }).catch(() => undefined);
    expect(calls).toHaveLength(1);
    await kis.ingestion.list({ maxRetries: 1 }).catch(() => undefined);
    expect(calls).toHaveLength(3);
  });

  it('retries connection failures and reports APIConnectionError at the end', async () => {
    const { fetch, calls } = mockFetch(() => {
      throw connReset();
    });
    const kis = client(fetch, { maxRetries: 3 });
    const err = await kis.ingestion.list().catch((e) => e);
    expect(APIConnectionError.isInstance(err)).toBe(true);
    expect(err.message).toContain('after 4 attempts');
    expect(err.code).toBe('UND_ERR_SOCKET'); // the code survives the retries' wrapping
    expect(calls).toHaveLength(4);
  });

  it('time-outs per attempt are retried, then APITimeoutError', async () => {
    const { fetch, calls } = mockFetch(
      (c) =>
        new Promise<Response>((_resolve, reject) => {
          const signal = (c as unknown as { signal?: AbortSignal }).signal;
          void signal;
          // never answers; the transport's per-attempt timer aborts it
          setTimeout(() => reject(new Error('should have been aborted')), 5_000).unref();
        }),
    );
    // wrap to honour the abort signal like a real fetch
    const abortable: typeof globalThis.fetch = (input, init) =>
      new Promise((resolve, reject) => {
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('aborted', 'AbortError')),
        );
        fetch(input, init).then(resolve, reject);
      });
    const kis = client(abortable, { timeoutMs: 20, maxRetries: 1 });
    const err = await kis.ingestion.list().catch((e) => e);
    expect(APITimeoutError.isInstance(err)).toBe(true);
    expect(APIConnectionError.isInstance(err)).toBe(true);
    expect(err.message).toContain('timed out after 20 ms');
    expect(calls).toHaveLength(2);
  });

  it('the AbortSignal stops a backoff wait with APIUserAbortError', async () => {
    const { fetch, calls } = mockFetch(() =>
      json({ detail: 'busy' }, 503, { 'retry-after': '30' }),
    );
    const kis = client(fetch, { maxRetries: 5 });
    const ac = new AbortController();
    const p = kis.ingestion.list({ signal: ac.signal });
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    ac.abort();
    await expect(p).rejects.toSatisfy((e) => APIUserAbortError.isInstance(e));
    expect(calls).toHaveLength(1);
  });
});

describe('retry timing (fake timers)', () => {
  async function timeline(headers: Record<string, string>, status = 429) {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const { fetch, calls } = mockFetch((_c, i) =>
      i === 0 ? json({ detail: 'wait' }, status, headers) : json([]),
    );
    const kis = client(fetch, { backoff: { initialDelayMs: 500, maxDelayMs: 8000 } });
    const p = kis.ingestion.list();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    return { p, calls };
  }

  it('honours Retry-After in seconds', async () => {
    const { p, calls } = await timeline({ 'retry-after': '5' });
    await vi.advanceTimersByTimeAsync(4_990);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(calls).toHaveLength(2);
    await expect(p).resolves.toEqual([]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const { p, calls } = await timeline({
      'retry-after': new Date('2030-01-01T00:00:03Z').toUTCString(),
    });
    await vi.advanceTimersByTimeAsync(2_900);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(calls).toHaveLength(2);
    await p;
  });

  it('retry-after-ms wins over Retry-After', async () => {
    const { p, calls } = await timeline({ 'retry-after-ms': '250', 'retry-after': '30' }, 503);
    await vi.advanceTimersByTimeAsync(240);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(calls).toHaveLength(2);
    await p;
  });

  it('ignores hints above 60 s and uses exponential backoff instead', async () => {
    const { p, calls } = await timeline({ 'retry-after': '3600' });
    // first backoff: 500 ms minus up to 25 % jitter
    await vi.advanceTimersByTimeAsync(370);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(140);
    expect(calls).toHaveLength(2);
    await p;
  });

  it('backs off exponentially with jitter, capped', () => {
    const opts = { initialDelayMs: 500, maxDelayMs: 8000 };
    expect(backoffDelayMs(1, opts, () => 0)).toBe(500);
    expect(backoffDelayMs(2, opts, () => 0)).toBe(1000);
    expect(backoffDelayMs(3, opts, () => 0)).toBe(2000);
    expect(backoffDelayMs(10, opts, () => 0)).toBe(8000);
    expect(backoffDelayMs(1, opts, () => 0.999)).toBeCloseTo(375.1, 0);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelayMs(3, opts);
      expect(d).toBeGreaterThan(1500);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });

  it('parses Retry-After forms and rejects out-of-range values', () => {
    const h = (o: Record<string, string>) => new Headers(o);
    expect(retryAfterMs(h({ 'retry-after': '0' }))).toBe(0);
    expect(retryAfterMs(h({ 'retry-after': '60' }))).toBe(60_000);
    expect(retryAfterMs(h({ 'retry-after': '61' }))).toBeUndefined();
    expect(retryAfterMs(h({ 'retry-after': '-1' }))).toBeUndefined();
    expect(retryAfterMs(h({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(h({ 'retry-after-ms': '12.5' }))).toBe(12.5);
    expect(retryAfterMs(h({ 'retry-after-ms': 'x', 'retry-after': '2' }))).toBe(2000);
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs(h({ 'retry-after': 'Tue, 01 Jan 2030 00:00:10 GMT' }), now)).toBe(10_000);
    expect(
      retryAfterMs(h({ 'retry-after': 'Tue, 01 Jan 2030 00:05:00 GMT' }), now),
    ).toBeUndefined();
    expect(retryAfterMs(h({}))).toBeUndefined();
  });
});

describe('connector creation is not retried blindly', () => {
  const connector = {
    name: 'c',
    source: 'web' as const,
    input_type: 'load_state' as const,
    access_type: 'PUBLIC' as const,
    connector_specific_config: {
      base_url: 'https://example.com',
      web_connector_type: 'single' as const,
    },
  };

  it('a 500 is not retried and the error says the connector may exist', async () => {
    const { fetch, calls } = mockFetch(() => json({ detail: 'boom' }, 500));
    const kis = client(fetch, { maxRetries: 3 });
    const err = await kis.connectors.create(connector).catch((e) => e);
    expect(InternalServerError.isInstance(err)).toBe(true);
    expect(err.message).toContain('may or may not have been created');
    expect(calls).toHaveLength(1);
  });

  it('a dropped connection is not retried and says so', async () => {
    const { fetch, calls } = mockFetch(() => {
      throw connReset();
    });
    const kis = client(fetch, { maxRetries: 3 });
    const err = await kis.connectors.create(connector).catch((e) => e);
    expect(APIConnectionError.isInstance(err)).toBe(true);
    expect(err.message).toContain('may or may not have been created; list connectors');
    expect(calls).toHaveLength(1);
  });

  it('429/503 answers and refused connections (nothing was processed) are retried', async () => {
    let n = 0;
    const { fetch, calls } = mockFetch(() => {
      n++;
      if (n === 1) throw connRefused();
      if (n === 2) return json({ detail: 'slow' }, 429);
      if (n === 3) return json({ detail: 'down' }, 503);
      return json({ id: 7, credential: null });
    });
    const kis = client(fetch, { maxRetries: 3 });
    await expect(kis.connectors.create(connector)).resolves.toEqual({ id: 7, credential: null });
    expect(calls).toHaveLength(4);
    expect(calls[0]?.body).toMatchObject({ access_type: 'public' });
  });

  it('RateLimitError after the retries are used up', async () => {
    const { fetch } = mockFetch(() => json({ detail: 'slow' }, 429));
    const kis = client(fetch, { maxRetries: 1 });
    await expect(kis.connectors.create(connector)).rejects.toSatisfy((e) =>
      RateLimitError.isInstance(e),
    );
  });
});
