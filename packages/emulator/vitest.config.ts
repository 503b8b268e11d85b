import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'emulator', include: ['test/**/*.test.ts'], exclude: ['test/memory/**'] },
      },
      {
        // memory tests force full collections to count the bytes the emulator keeps
        extends: true,
        test: {
          name: 'memory',
          include: ['test/memory/**/*.test.ts'],
          execArgv: ['--expose-gc'],
          testTimeout: 120_000,
        },
      },
    ],
  },
});
