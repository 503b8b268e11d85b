// The parts of a verification that hold no server: the query that should find a document, the
// compact set of listed ids, and the seeded sample.
import { describe, expect, it } from 'vitest';
import { distinctivePhrase, titleQuery } from '../src/internal/verify/findable-query.js';
import { IdSet } from '../src/internal/verify/id-set.js';
import { reservoir, seededRandom } from '../src/internal/verify/sample.js';

describe('the query that should find a document', () => {
  it('is the window of words rare anywhere: long, with digits, not common, once here', () => {
    const text =
      'The team met and the team talked about the plan. Then invoice INV-20931 for Fabrikam ' +
      'Contoso was approved by the board, and the team went home.';
    expect(distinctivePhrase(text)).toBe('invoice INV 20931 for Fabrikam Contoso was approved');
  });

  it('takes a short text whole, and gives none for common words alone', () => {
    expect(distinctivePhrase('Kubernetes upgrade')).toBe('Kubernetes upgrade');
    expect(distinctivePhrase('the and of to a')).toBeUndefined();
    expect(distinctivePhrase('')).toBeUndefined();
  });

  it('reads letters and digits of any script', () => {
    expect(distinctivePhrase('東京 の 議事録 2024年')).toBe('東京 の 議事録 2024年');
  });

  it('a title with a word worth searching for; not "Unknown" or common words alone', () => {
    expect(titleQuery(' Leave policy ')).toBe('Leave policy');
    expect(titleQuery('Unknown')).toBeUndefined();
    expect(titleQuery('The one')).toBeUndefined();
    expect(titleQuery(undefined)).toBeUndefined();
  });
});

describe('IdSet', () => {
  it('holds 100,000 ids at 8 bytes each (load ≤ 0.5), and marks those matched', () => {
    const set = new IdSet(16);
    for (let i = 0; i < 100_000; i++) set.add(`docs%2Fnote-${i}.md`);
    set.add('docs%2Fnote-7.md');
    expect(set.size).toBe(100_000);
    expect(set.has('docs%2Fnote-99999.md')).toBe(true);
    expect(set.has('docs%2Fnote-100000.md')).toBe(false);
    expect(set.mark('docs%2Fnote-5.md')).toBe(true);
    expect(set.mark('docs%2Fnote-5.md')).toBe(true);
    expect(set.mark('elsewhere')).toBe(false);
    expect(set.marked).toBe(1);
  });
});

describe('a seeded sample', () => {
  it('draws the same items for the same seed, in stream order, and counts the stream', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => i);
    const a = await reservoir(items, 10, seededRandom(7));
    const b = await reservoir(items, 10, seededRandom(7));
    const c = await reservoir(items, 10, seededRandom(8));
    expect(a.sample).toEqual(b.sample);
    expect(a.sample).not.toEqual(c.sample);
    expect(a.population).toBe(1000);
    expect([...a.sample].sort((x, y) => x - y)).toEqual(a.sample);
  });

  it('keeps everything of a stream shorter than the sample', async () => {
    expect((await reservoir([1, 2, 3], 10, seededRandom(1))).sample).toEqual([1, 2, 3]);
  });

  it('is uniform: each item is drawn about as often', async () => {
    const counts = new Array(20).fill(0);
    const random = seededRandom(3);
    for (let round = 0; round < 2000; round++) {
      for (const i of (await reservoir(counts.keys(), 5, random)).sample) counts[i]++;
    }
    // 2,000 rounds × 5 of 20: 500 expected each
    for (const n of counts) expect(Math.abs(n - 500)).toBeLessThan(90);
  });
});
