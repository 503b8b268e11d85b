import { PROFILES } from '@kis/rules';
import { defineConfig } from 'vitest/config';

// Unit tests run once; the end-to-end tests (the built `kis` against the emulator) run once per
// server profile the emulator plays (`seed`, `deployed`), as the projects `e2e-seed` and
// `e2e-deployed`: same files, the profile handed to them with `provide` (`inject('profile')` in
// test/helpers/profile.ts). One profile alone: `vitest run --project e2e-deployed`.
export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The end-to-end files mostly wait on the `kis` child processes and the emulator: two at a
    // time keeps two cores busy (vitest's default on two cores is one file at a time).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/*.test.ts'] },
      },
      // queue mode (`--queue`, `kis worker`, `kis queue`) with a private redis-server: once, against
      // the deployed profile (what the servers queue mode feeds play)
      {
        extends: true,
        test: {
          name: 'queue',
          include: ['test/queue/**/*.test.ts'],
          provide: { profile: 'deployed' },
        },
      },
      ...PROFILES.map((profile) => ({
        extends: true as const,
        test: {
          name: `e2e-${profile}`,
          include: ['test/e2e/**/*.test.ts'],
          provide: { profile },
        },
      })),
    ],
  },
});
