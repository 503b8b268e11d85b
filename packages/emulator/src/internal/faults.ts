// Faults the emulator can inject into ingestion calls (`--faults`), so users can test their own
// pipelines against what deployed servers do under load (README, "Faults, capacity and outages").

/**
 * What one ingestion call may suffer: an answer or connection it never gets, or (`index-fail`)
 * an index write that fails inside a call that still answers 200 (index-faults.ts).
 */
export type FaultKind = '503' | '429' | 'reset' | 'reset-after-store' | 'slow' | 'index-fail';

export const FAULT_KINDS: readonly FaultKind[] = [
  '503',
  '429',
  'reset',
  'reset-after-store',
  'slow',
  'index-fail',
];

/** The faults of the call's transport, drawn before the handler runs. */
const TRANSPORT_FAULTS: readonly FaultKind[] = FAULT_KINDS.filter((k) => k !== 'index-fail');

/** Probability of each fault per ingestion call, and how long a slow answer takes. */
export interface FaultPlan {
  readonly rates: Readonly<Partial<Record<FaultKind, number>>>;
  /** Delay of a `slow` answer, in milliseconds. */
  readonly slowMs: number;
}

/** A fault spec the emulator cannot use; the message names the item and what was expected. */
export class FaultSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultSpecError';
  }
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000 } as const;

/** `30s`, `500ms`, `1m` → milliseconds. */
export function parseDuration(text: string, what: string): number {
  const m = DURATION.exec(text.trim());
  if (m === null) {
    throw new FaultSpecError(
      `${what}: expected a duration such as 500ms, 30s or 1m (got '${text}')`,
    );
  }
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}

/**
 * Parses `503=0.10,429=0.05,reset=0.01,reset-after-store=0.01,slow=0.01:30s,index-fail=0.05`:
 * each item a fault kind and its probability per call; `slow` also takes the delay. The rates add
 * up to at most 1.
 */
export function parseFaults(spec: string): FaultPlan {
  const rates: Partial<Record<FaultKind, number>> = {};
  let slowMs = 30_000;
  for (const raw of spec.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    const kind = (eq < 0 ? item : item.slice(0, eq)).trim();
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
      throw new FaultSpecError(
        `--faults item '${item}': unknown fault '${kind}' (expected one of ${FAULT_KINDS.join(', ')})`,
      );
    }
    if (eq < 0) throw new FaultSpecError(`--faults item '${item}': expected ${kind}=RATE`);
    let value = item.slice(eq + 1).trim();
    if (kind === 'slow') {
      const colon = value.indexOf(':');
      if (colon >= 0) {
        slowMs = parseDuration(value.slice(colon + 1), `--faults item '${item}'`);
        value = value.slice(0, colon);
      }
    }
    const rate = Number(value);
    if (value === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
      throw new FaultSpecError(
        `--faults item '${item}': the rate must be a number from 0 to 1 (got '${value}')`,
      );
    }
    rates[kind as FaultKind] = rate;
  }
  const total = Object.values(rates).reduce((a, b) => a + b, 0);
  if (total > 1 + 1e-9) {
    throw new FaultSpecError(`--faults: the rates add up to ${total}, more than 1`);
  }
  return { rates, slowMs };
}

/** A seeded generator of numbers in [0, 1) (mulberry32): the same seed draws the same faults. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws the transport fault of one call, or undefined for a clean call. */
export function drawFault(plan: FaultPlan, random: () => number): FaultKind | undefined {
  let r = random();
  for (const kind of TRANSPORT_FAULTS) {
    const rate = plan.rates[kind] ?? 0;
    if (r < rate) return kind;
    r -= rate;
  }
  return undefined;
}
