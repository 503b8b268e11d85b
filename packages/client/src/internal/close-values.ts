/**
 * Did-you-mean: the known values close to a mistyped one. Used for config keys here and for
 * enumerations by the CLI (`@kis/client/node` re-exports it), so both hint alike.
 */
import { editDistance } from './edit-distance.js';

/** Values close to `input`: small edit distance, or sharing a prefix or substring. */
export function closeValues(input: string, values: readonly string[], max = 5): string[] {
  const needle = input.toLowerCase();
  const limit = Math.max(2, Math.floor(needle.length / 3));
  return values
    .map((value) => {
      const d = editDistance(needle, value.toLowerCase());
      const related =
        needle.length >= 3 &&
        (value.startsWith(needle) || needle.startsWith(value) || value.includes(needle));
      return { value, score: related ? Math.min(d, 1) : d };
    })
    .filter(({ score }) => score <= limit)
    .sort((a, b) => a.score - b.score || a.value.localeCompare(b.value))
    .slice(0, max)
    .map(({ value }) => value);
}
