// Starts a Prism mock of the bundled spec, and the emulator behind `prism proxy --errors`, once for
// the whole suite; the tests receive their URLs through `inject`. Everything is stopped afterwards.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '@kis/emulator';
import type { TestProject } from 'vitest/node';
import { type PrismHandle, startPrism } from '../src/prism.js';

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
    proxyUrl: string;
    proxyLogPath: string;
    emulatorUrl: string;
    emulatorAdminKey: string;
    emulatorUserKey: string;
  }
}

export const EMULATOR_USER_KEY = 'contract-user-key-not-admin';

let mock: PrismHandle | undefined;
let proxy: PrismHandle | undefined;
let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;

export async function setup(project: TestProject) {
  [mock, emulator] = await Promise.all([
    startPrism('mock'),
    startEmulator({ port: 0, dbPath: ':memory:', userKeys: [EMULATOR_USER_KEY] }),
  ]);
  const proxyLogPath = join(mkdtempSync(join(tmpdir(), 'kis-contract-')), 'prism-proxy.log');
  proxy = await startPrism('proxy', { upstream: emulator.baseUrl, logPath: proxyLogPath });
  project.provide('proxyLogPath', proxyLogPath);
  project.provide('mockUrl', mock.url);
  project.provide('proxyUrl', proxy.url);
  project.provide('emulatorUrl', emulator.baseUrl);
  project.provide('emulatorAdminKey', emulator.adminKey);
  project.provide('emulatorUserKey', EMULATOR_USER_KEY);
}

export async function teardown() {
  await Promise.all([mock?.stop(), proxy?.stop()]);
  await emulator?.close();
}
