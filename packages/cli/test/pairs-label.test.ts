import { describe, expect, it } from 'vitest';
import { pairsLabel } from '../src/internal/commands/ingest/report.js';

describe('pairsLabel (the ingest summary names the pairs documents went to)', () => {
  it('names one pair, the default pair, or all of them', () => {
    expect(pairsLabel(new Set([2]))).toBe('cc pair 2');
    expect(pairsLabel(new Set([null]))).toBe('the default cc pair');
    expect(pairsLabel(new Set([5, 2]))).toBe('cc pairs 2 and 5');
    expect(pairsLabel(new Set([null, 7, 3, 10]))).toBe('cc pairs 3, 7, 10 and the default cc pair');
  });
});
