import { describe, expect, it } from 'vitest';
import { closeValues } from '../src/index.js';
import { editDistance } from '../src/internal/edit-distance.js';

describe('editDistance (Levenshtein)', () => {
  const cases: [string, string, number][] = [
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['same', 'same', 0],
    ['kitten', 'sitting', 3],
    ['sitting', 'kitten', 3],
    ['flaw', 'lawn', 2],
    ['saturday', 'sunday', 3],
    ['intention', 'execution', 5],
    ['gumbo', 'gambol', 2],
    ['a', 'b', 1],
    ['ab', 'ba', 2],
    ['projekt_key', 'project_key', 1],
    ['jira_base_ur', 'jira_base_url', 1],
    ['confluense', 'confluence', 1],
    ['café', 'cafe', 1],
    // UTF-16 code units: these two emoji share their high surrogate
    ['😀', '😃', 1],
    ['😀', '', 2],
  ];
  it.each(cases)('%j → %j is %i', (a, b, expected) => {
    expect(editDistance(a, b)).toBe(expected);
  });

  it('is symmetric and meets the triangle inequality', () => {
    const words = ['', 'a', 'abc', 'acb', 'kitten', 'sitting', 'mitten', 'jira', 'jira_base_url'];
    for (const a of words)
      for (const b of words) {
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        for (const c of words)
          expect(editDistance(a, c)).toBeLessThanOrEqual(editDistance(a, b) + editDistance(b, c));
      }
  });
});

describe('closeValues (did-you-mean)', () => {
  const keys = ['project_key', 'jql_query', 'jira_base_url', 'comment_email_blacklist'];
  it('names the closest values first, case-insensitively', () => {
    expect(closeValues('projekt_key', keys)).toEqual(['project_key']);
    expect(closeValues('JQL_QUERRY', keys)).toEqual(['jql_query']);
  });
  it('counts a shared prefix or substring as close', () => {
    expect(closeValues('jira', keys)).toEqual(['jira_base_url']);
    expect(closeValues('comment', keys)).toEqual(['comment_email_blacklist']);
  });
  it('names nothing when no value is close, and at most `max` values', () => {
    expect(closeValues('zzzzzz', keys)).toEqual([]);
    expect(closeValues('ab', ['aa', 'ab', 'ac', 'ad', 'ae', 'af'], 3)).toEqual(['ab', 'aa', 'ac']);
  });
});
