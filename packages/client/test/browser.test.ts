import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without type declarations
import { BUDGET_BYTES, measure } from '../scripts/size.mjs';

interface Measured {
  eager: { gzip: number; files: string[] };
  lazy: Array<{ file: string; gzip: number }>;
  nodeBuiltins: string[];
  externalImports: string[];
}

describe('the core in a browser', () => {
  it('bundles with esbuild platform=browser, pulls in no Node built-in, and fits the size budget', async () => {
    const r = (await (measure as () => Promise<Measured>)()) as Measured;
    expect(r.nodeBuiltins).toEqual([]);
    expect(r.externalImports).toEqual([]);
    expect(r.eager.gzip).toBeLessThanOrEqual(BUDGET_BYTES as number);
    expect(r.lazy.length).toBeGreaterThan(0);
  });
});
