// Starts, once per project, what its tests talk to, and hands the URLs over through `provide`:
// for `mock`, a Prism mock of the bundled spec; for `emulator-<profile>`, the emulator playing that
// server profile behind `prism proxy --errors`. Each project's servers stop when it ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Emulator, startEmulator } from '@kis/emulator';
import type { Profile } from '@kis/rules';
import type { TestProject } from 'vitest/node';
import { type PrismHandle, startPrism } from '../src/prism.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The emulator's server profile (emulator projects only). */
    profile: Profile;
    mockUrl: string;
    proxyUrl: string;
    proxyLogPath: string;
    emulatorUrl: string;
    emulatorAdminKey: string;
    emulatorUserKey: string;
  }
}

export const EMULATOR_USER_KEY = 'contract-user-key-not-admin';

/** Starts the project's servers; resolves with the function that stops them (its teardown). */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const profile = project.config.provide?.profile;
  if (profile === undefined) {
    const mock = await startPrism('mock');
    project.provide('mockUrl', mock.url);
    return () => mock.stop();
  }
  const emulator: Emulator = await startEmulator({
    port: 0,
    dbPath: ':memory:',
    userKeys: [EMULATOR_USER_KEY],
    profile,
    // attempts outlast a slow proxied round trip: a run-once right after another must still find
    // the first queued or running (1 s was passed by the validating proxy on a loaded machine)
    tasks: { durationMs: 3000 },
  });
  const proxyLogPath = join(mkdtempSync(join(tmpdir(), `kis-contract-${profile}-`)), 'prism.log');
  let proxy: PrismHandle;
  try {
    proxy = await startPrism('proxy', { upstream: emulator.baseUrl, logPath: proxyLogPath });
  } catch (error) {
    await emulator.close();
    rmSync(dirname(proxyLogPath), { recursive: true, force: true });
    throw error;
  }
  project.provide('proxyLogPath', proxyLogPath);
  project.provide('proxyUrl', proxy.url);
  project.provide('emulatorUrl', emulator.baseUrl);
  project.provide('emulatorAdminKey', emulator.adminKey);
  project.provide('emulatorUserKey', EMULATOR_USER_KEY);
  return async () => {
    await proxy.stop();
    await emulator.close();
    rmSync(dirname(proxyLogPath), { recursive: true, force: true });
  };
}
