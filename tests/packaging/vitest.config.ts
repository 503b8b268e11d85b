import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    // Packs every public package, installs each into its own project and makes the consumer
    // project, once, before the test files (better-sqlite3 builds there: ~2 minutes on 2 cores).
    globalSetup: ['src/global-setup.ts'],
    // The test files drive installed binaries and emulators: one file at a time on 2 cores.
    fileParallelism: false,
    // Slow by nature (compilers and binaries started from the consumer projects), and sized for a
    // loaded 2-core machine; every command also has its own time-out (src/run.ts).
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});
