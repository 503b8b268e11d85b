import { PROFILES } from '@kis/rules';
import { defineConfig } from 'vitest/config';

// Three projects: `mock` (the client and the connector-setup app against a Prism mock of the
// spec), then `emulator-seed` and `emulator-deployed`: the same files (the client's workflows and
// the example apps against the emulator behind `prism proxy --errors`, and the main job) once per
// server profile the emulator plays. The global setup starts what a project needs and hands the
// profile over with `provide` (`inject('profile')`). One project alone:
// `vitest run --project emulator-deployed`.
export default defineConfig({
  test: {
    globalSetup: ['./test/global-setup.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    projects: [
      { extends: true as const, test: { name: 'mock', include: ['test/mock.test.ts'] } },
      ...PROFILES.map((profile) => ({
        extends: true as const,
        test: {
          name: `emulator-${profile}`,
          include: ['test/emulator-proxy.test.ts', 'test/apps.test.ts'],
          provide: { profile },
        },
      })),
    ],
  },
});
