const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/**
 * A duration such as `90s`, `10m`, `1h30m` or `500ms` (units ms, s, m or min, h; parts in any
 * order, summed), in milliseconds; `0` alone is allowed too. Undefined when it is not one.
 */
export function parseDuration(text: string): number | undefined {
  const value = text.trim().toLowerCase();
  if (value === '0') return 0;
  if (!/^(\d+(\.\d+)?(ms|s|min|m|h))+$/.test(value)) return undefined;
  let total = 0;
  for (const [, amount, , unit] of value.matchAll(/(\d+(\.\d+)?)(ms|s|min|m|h)/g)) {
    total += Number(amount) * (UNIT_MS[unit as string] as number);
  }
  return Number.isSafeInteger(Math.round(total)) ? Math.round(total) : undefined;
}
