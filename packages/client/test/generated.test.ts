import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without type declarations
import { generate, TARGET } from '../scripts/generate-validators.mjs';

describe('generated validators', () => {
  it('are fresh against the bundled spec (regenerated in memory)', () => {
    const committed = readFileSync(TARGET as string, 'utf8');
    const fresh = (generate as () => string)();
    if (committed !== fresh) {
      throw new Error(
        'src/internal/generated/validators.ts is stale: run `pnpm --filter @kis/client generate`',
      );
    }
    expect(committed.startsWith('// generated — do not edit.')).toBe(true);
    expect(committed).not.toMatch(/\brequire\(/);
  });
});
