// Table tests of admin search (docs/deployed-servers.md, "Is a document searchable?"): sampling,
// hidden documents, time filters, tags and the index backends. Written out from compat notes §1.
import { describe, expect, it } from 'vitest';
import {
  documentTags,
  INDEX_BACKENDS,
  includesHidden,
  inRange,
  isSampleQuery,
  KEYWORD_HITS,
  RANDOM_SAMPLE_CHUNKS,
  updatedRange,
} from '../src/index.js';

describe('admin search', () => {
  it('keyword queries find 50 chunks with hidden documents; empty ones sample 10 without', () => {
    expect([KEYWORD_HITS, RANDOM_SAMPLE_CHUNKS]).toEqual([50, 10]);
    expect([isSampleQuery(''), isSampleQuery('  \t'), isSampleQuery('kis')]).toEqual([
      true,
      true,
      false,
    ]);
    expect([includesHidden('kis'), includesHidden(' ')]).toEqual([true, false]);
  });

  it('time_cutoff is the start of the update range unless that has one', () => {
    expect(updatedRange({ time_cutoff: '2026-01-01T00:00:00Z' })).toEqual({
      start: '2026-01-01T00:00:00Z',
    });
    expect(
      updatedRange({
        time_cutoff: '2026-01-01T00:00:00Z',
        updated_at_range: { end: '2026-02-01T00:00:00Z' },
      }),
    ).toEqual({
      start: '2026-01-01T00:00:00Z',
      end: '2026-02-01T00:00:00Z',
    });
    expect(
      updatedRange({
        time_cutoff: '2026-01-01T00:00:00Z',
        updated_at_range: { start: '2025-06-01T00:00:00Z' },
      }),
    ).toEqual({ start: '2025-06-01T00:00:00Z' });
    expect(updatedRange({})).toBeUndefined();
  });

  it.each([
    ['2026-01-10T00:00:00Z', { start: '2026-01-10T00:00:00Z' }, true],
    ['2026-01-10T00:00:00Z', { end: '2026-01-10T00:00:00Z' }, true],
    ['2026-01-10T00:00:00Z', { start: '2026-01-10T00:00:01Z' }, false],
    ['2026-01-10T00:00:00Z', { start: '2026-01-09', end: '2026-01-11' }, true],
    ['2026-01-10T01:00:00+02:00', { start: '2026-01-10T00:00:00' }, false],
    ['2026-01-10T03:00:00+02:00', { start: '2026-01-10T00:00:00' }, true],
    ['2026-01-10T00:00:00Z', undefined, true],
  ])('%s in %j: %s (inclusive, naive times are UTC)', (time, range, inside) => {
    expect(inRange(time, range)).toBe(inside);
  });

  it('tags: one per key and value, one per item of a list', () => {
    expect(documentTags({ team: 'kis', tags: ['a', 'b'] })).toEqual([
      { tag_key: 'team', tag_value: 'kis' },
      { tag_key: 'tags', tag_value: 'a' },
      { tag_key: 'tags', tag_value: 'b' },
    ]);
  });

  it('Vespa ignores created_at_range and its checks see hidden documents; OpenSearch not', () => {
    expect(INDEX_BACKENDS).toEqual({
      vespa: { appliesCreatedRange: false, checksSeeHidden: true },
      opensearch: { appliesCreatedRange: true, checksSeeHidden: false },
    });
  });
});
