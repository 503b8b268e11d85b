// The one table of what is retried, pinned with written-out values: the transport and bulk runs
// both read it.
import { describe, expect, it } from 'vitest';
import { meansLoad, worthRetrying, worthRetryingOnce } from '../src/internal/retry-table.js';

const STATUSES = [400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 501, 502, 503, 504];

describe('the retry table', () => {
  it('retries a repeatable request after 408, 409, 429, every 5xx and no answer', () => {
    expect(STATUSES.filter((status) => worthRetrying({ status }))).toEqual([
      408, 409, 429, 500, 501, 502, 503, 504,
    ]);
    expect(worthRetrying({ failure: 'connection' })).toBe(true);
    expect(worthRetrying({ failure: 'timeout' })).toBe(true);
  });

  it('retries a create only when the server surely did not act', () => {
    expect(STATUSES.filter((status) => worthRetryingOnce({ status }))).toEqual([408, 429, 503]);
    expect(worthRetryingOnce({ failure: 'connection', preSend: true })).toBe(true);
    expect(worthRetryingOnce({ failure: 'connection' })).toBe(false);
    expect(worthRetryingOnce({ failure: 'timeout' })).toBe(false);
  });

  it('reads 429, 503, 504 and time-outs as load', () => {
    expect(STATUSES.filter((status) => meansLoad({ status }))).toEqual([429, 503, 504]);
    expect(meansLoad({ failure: 'timeout' })).toBe(true);
    expect(meansLoad({ failure: 'connection' })).toBe(false);
  });
});
