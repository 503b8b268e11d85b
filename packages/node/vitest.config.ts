import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'node', include: ['test/**/*.test.ts'], exclude: ['test/memory/**'] },
      },
      {
        // memory tests force full collections to count the bytes a run keeps
        extends: true,
        test: {
          name: 'memory',
          include: ['test/memory/**/*.test.ts'],
          execArgv: ['--expose-gc'],
          testTimeout: 180_000,
        },
      },
    ],
  },
});
