// The names a pair answers to where kis takes a pair by name (PAIR arguments, a set's pairs).
import { describe, expect, it } from 'vitest';
import { pairNames } from '../src/index.js';

describe('pair names', () => {
  it("a pair answers to its connector's name, and to its own when it differs", () => {
    expect(pairNames({ name: 'Docs', connector: { name: 'Docs' } })).toEqual(['Docs']);
    expect(pairNames({ name: 'Docs (EU)', connector: { name: 'Docs' } })).toEqual([
      'Docs',
      'Docs (EU)',
    ]);
    expect(pairNames({ name: null, connector: { name: 'Docs' } })).toEqual(['Docs']);
  });
});
