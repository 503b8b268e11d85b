/**
 * What to search for to find one document: a phrase of its own text that few other documents
 * share, or its title when there is no text at hand. Keyword search ranks rare words first, and a
 * verification keeps no statistics of the corpus, so a phrase's words are scored by what makes a
 * word rare anywhere: length, digits, not being a common English word, appearing once here.
 */

import { UNKNOWN_SEMANTIC_IDENTIFIER } from '@kis/rules';

/** Words a phrase is scored over: the first ones of a long text say enough. */
const WORDS_READ = 2000;
/** Words of a phrase. */
const PHRASE_WORDS = 8;

const COMMON = new Set(
  (
    'the a an and or but if then else of to in on at by for with from as is are was were be been ' +
    'this that these those it its not no yes can will would should could may might must do does ' +
    'did has have had you your we our they their he she his her them there here what which who ' +
    'when where why how all any some more most other such only own same so than too very just ' +
    'about into over after before under again further once also each both few new one two'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}_]+/gu;

function score(word: string, count: number): number {
  const lower = word.toLowerCase();
  if (lower.length < 3 || COMMON.has(lower)) return 0;
  let s = Math.min(lower.length, 12);
  if (/\p{N}/u.test(lower)) s += 6;
  if (/\p{N}/u.test(lower) && /\p{L}/u.test(lower)) s += 3;
  if (count === 1) s += 4;
  return s;
}

/**
 * The window of `PHRASE_WORDS` consecutive words of `text` that scores highest, as a query;
 * undefined when the text has no word worth searching for.
 */
export function distinctivePhrase(text: string): string | undefined {
  const words: string[] = [];
  for (const match of text.matchAll(WORD)) {
    words.push(match[0]);
    if (words.length >= WORDS_READ) break;
  }
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w.toLowerCase(), (counts.get(w.toLowerCase()) ?? 0) + 1);
  const scores = words.map((w) => score(w, counts.get(w.toLowerCase()) ?? 0));
  let best = -1;
  let bestAt = 0;
  let sum = 0;
  for (let i = 0; i < words.length; i++) {
    sum += scores[i] as number;
    if (i >= PHRASE_WORDS) sum -= scores[i - PHRASE_WORDS] as number;
    if (i >= Math.min(PHRASE_WORDS, words.length) - 1 && sum > best) {
      best = sum;
      bestAt = Math.max(0, i - PHRASE_WORDS + 1);
    }
  }
  if (best <= 0) return undefined;
  return words.slice(bestAt, bestAt + PHRASE_WORDS).join(' ');
}

/** A title worth searching for: one with a word that is not common. */
export function titleQuery(title: string | undefined): string | undefined {
  const trimmed = title?.trim();
  if (!trimmed || trimmed === UNKNOWN_SEMANTIC_IDENTIFIER) return undefined;
  const words = trimmed.match(WORD) ?? [];
  return words.some((w) => score(w, 1) > 0) ? trimmed : undefined;
}
