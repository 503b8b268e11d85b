import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    // Packing, installing the tarballs (better-sqlite3 builds from source: ~2 minutes on 2 cores)
    // and driving the installed binaries is slow by nature; each step prints what it does.
    testTimeout: 120_000,
    hookTimeout: 900_000,
  },
});
