/**
 * Levenshtein distance for the did-you-mean hints of close-values.ts: a few lines of our own
 * rather than a dependency, as the client's installed size is budgeted (tests/packaging/README.md).
 */

/**
 * The least number of one-character insertions, deletions and substitutions that turn `a` into
 * `b`, counted in UTF-16 code units (as `String.prototype.length` counts).
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  // Keep the shorter string as the row: memory is one row of its length plus one.
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length === 0) return long.length;
  const row = new Array<number>(short.length + 1);
  for (let i = 0; i <= short.length; i++) row[i] = i;
  for (let j = 1; j <= long.length; j++) {
    const code = long.charCodeAt(j - 1);
    // `diagonal` is the previous row's value at i - 1; row[0] becomes j.
    let diagonal = row[0]!;
    row[0] = j;
    for (let i = 1; i <= short.length; i++) {
      const above = row[i]!;
      const substitution = diagonal + (short.charCodeAt(i - 1) === code ? 0 : 1);
      row[i] = Math.min(substitution, above + 1, row[i - 1]! + 1);
      diagonal = above;
    }
  }
  return row[short.length]!;
}
