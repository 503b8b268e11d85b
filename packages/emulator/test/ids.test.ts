import { describe, expect, it } from 'vitest';
import { makeUrlCompatible, pythonQuote, storedDocumentId } from '../src/index.js';

// Expected values computed with Python 3: quote(s.replace(' ', '_'), safe='').
const PYTHON_CASES: [string, string][] = [
  ['Q4 report (2024).pdf', 'Q4_report_%282024%29.pdf'],
  ["it's *fine*!", 'it%27s_%2Afine%2A%21'],
  ['a/b?c=d&e#f', 'a%2Fb%3Fc%3Dd%26e%23f'],
  ['héllo wörld', 'h%C3%A9llo_w%C3%B6rld'],
  ['日本語 doc', '%E6%97%A5%E6%9C%AC%E8%AA%9E_doc'],
  ['~tilde_under-dash.dot', '~tilde_under-dash.dot'],
  ['emoji 😀', 'emoji_%F0%9F%98%80'],
  ['100%', '100%25'],
  ['tab\there', 'tab%09here'],
  ['already%20encoded', 'already%2520encoded'],
];

describe('document ids (Python quote(s, safe=""))', () => {
  it.each(PYTHON_CASES)('makeUrlCompatible(%j) = %j', (input, expected) => {
    expect(makeUrlCompatible(input)).toBe(expected);
  });

  it("escapes the characters encodeURIComponent leaves alone: ! ' ( ) *", () => {
    expect(pythonQuote("!'()*")).toBe('%21%27%28%29%2A');
    expect(encodeURIComponent("!'()*")).toBe("!'()*");
  });

  it('leaves only A-Z a-z 0-9 _ . - ~ unescaped and encodes spaces as %20', () => {
    expect(pythonQuote('AZaz09_.-~')).toBe('AZaz09_.-~');
    expect(pythonQuote('a b')).toBe('a%20b');
  });

  it('encodes a lone surrogate as U+FFFD instead of throwing', () => {
    expect(pythonQuote('x\ud800y')).toBe('x%EF%BF%BDy');
  });

  it('derives ingestion_api_ + identifier when the id is missing or empty', () => {
    expect(storedDocumentId(undefined, 'Q4 report (2024).pdf')).toBe(
      'ingestion_api_Q4_report_%282024%29.pdf',
    );
    expect(storedDocumentId(null, 'a b')).toBe('ingestion_api_a_b');
    expect(storedDocumentId('', 'x')).toBe('ingestion_api_x');
  });

  it('stores a given id with spaces to _ and percent-encoding', () => {
    expect(storedDocumentId('my doc/1', 'ignored')).toBe('my_doc%2F1');
    expect(storedDocumentId('plain-id_1', 'ignored')).toBe('plain-id_1');
  });
});
