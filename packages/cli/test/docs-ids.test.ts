import { describe, expect, it } from 'vitest';
import { storedIdFor } from '../src/internal/stored-ids.js';

describe('kis docs delete: the stored form of a typed id', () => {
  it('keeps ids as listed and encodes the others as the server stores them', () => {
    expect(storedIdFor('docs%2Fintro.md')).toBe('docs%2Fintro.md');
    expect(storedIdFor('ingestion_api_Hello_World%21')).toBe('ingestion_api_Hello_World%21');
    expect(storedIdFor('old.txt')).toBe('old.txt');
    expect(storedIdFor('docs/intro.md')).toBe('docs%2Fintro.md');
    expect(storedIdFor('Q4 report (2024).pdf')).toBe('Q4_report_%282024%29.pdf');
    expect(storedIdFor('a b/c')).toBe('a_b%2Fc');
  });
});
