import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without type declarations
import * as generator from '../scripts/generate-validators.mjs';

const { CONFIGS_TARGET, generate, generateConfigs, TARGET } = generator as Record<string, unknown>;

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

  it('connector-configs.ts is fresh and needs no Ajv at run time', () => {
    const committed = readFileSync(CONFIGS_TARGET as string, 'utf8');
    if (committed !== (generateConfigs as () => string)()) {
      throw new Error(
        'src/internal/generated/connector-configs.ts is stale: run `pnpm --filter @kis/client generate`',
      );
    }
    expect(committed).not.toMatch(/\brequire\(|from 'ajv/);
  });
});
