/** An answer's headers as the Node senders get them (by name, a repeated one as a list). */
export type RawHeaders = Record<string, string | string[] | undefined>;

/** The headers as name/value pairs (a repeated header once per value). */
export function headerPairs(raw: RawHeaders): [string, string][] {
  const pairs: [string, string][] = [];
  for (const name in raw) {
    const value = raw[name];
    if (Array.isArray(value)) for (const one of value) pairs.push([name, one]);
    else if (value !== undefined) pairs.push([name, value]);
  }
  return pairs;
}
