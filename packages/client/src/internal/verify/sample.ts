/**
 * `--sample N`: a uniform random sample of a stream of unknown length (reservoir sampling), drawn
 * from a seeded generator, so the same seed over the same documents checks the same ones. Holds
 * N items, whatever the stream's length.
 */

/** A seeded generator of numbers in [0, 1) (mulberry32: small, fast, good enough to sample). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for a run that was given none (reported, so that the run can be repeated). */
export function newSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/** `size` items drawn uniformly from `items`, in stream order, and how many there were. */
export async function reservoir<T>(
  items: AsyncIterable<T> | Iterable<T>,
  size: number,
  random: () => number,
): Promise<{ sample: T[]; population: number }> {
  const kept: { at: number; item: T }[] = [];
  let seen = 0;
  for await (const item of items) {
    if (kept.length < size) kept.push({ at: seen, item });
    else {
      const j = Math.floor(random() * (seen + 1));
      if (j < size) kept[j] = { at: seen, item };
    }
    seen++;
  }
  kept.sort((a, b) => a.at - b.at);
  return { sample: kept.map((k) => k.item), population: seen };
}
