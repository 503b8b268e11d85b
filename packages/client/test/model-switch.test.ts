/**
 * A model switch in progress and what it means for pushed documents (compat notes §8): copied
 * into the new index by the port flow, left out by the legacy flow unless pushed again. Against
 * the emulator in both profiles, its ports held long enough to read the switch.
 */
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKisClient, type KisClient } from '../src/index.js';
import { API_KEY } from './helpers.js';

describe.each(['seed', 'deployed'] as const)('against the emulator (%s profile)', (profile) => {
  let emu: Emulator;
  let kis: KisClient;
  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      dbPath: ':memory:',
      adminKey: API_KEY,
      profile,
      tasks: { portMs: 60_000 },
    });
    kis = createKisClient({ baseUrl: emu.baseUrl, apiKey: API_KEY, logLevel: 'off' });
  });
  afterAll(async () => {
    await emu?.close();
  });

  it('switchInProgress: none, then what a port-flow and a legacy switch mean for pushed documents', async () => {
    expect(await kis.searchSettings.switchInProgress()).toBeNull();
    emu.modelSwitch.start({ model_name: 'new-model', use_port_flow: true });
    const port = await kis.searchSettings.switchInProgress();
    expect(port).toMatchObject({ flow: 'port', switchover: 'reindex', pushedDocuments: 'ported' });
    expect(port?.message).toBe(
      'a switch to the embedding model "new-model" is in progress (port flow, switchover reindex): the documents of every pair but deleting and invalid ones, pushed ones included, are copied into the new index; pushes meanwhile write both indexes, and searches read the current index until the swap',
    );
    const ported = (await kis.doctor()).checks.find((c) => c.name === 'model switch');
    expect(ported).toMatchObject({ ok: true, warning: true, detail: port?.message });
    expect(ported?.fix).toBeUndefined();
    emu.modelSwitch.finish();

    // a pair pushed into keeps a legacy switch going: no connector run ever fills it
    await kis.setupIngestionPair({ name: 'Pushed' });
    emu.modelSwitch.start({ model_name: 'legacy-model', use_port_flow: false });
    const legacy = await kis.searchSettings.switchInProgress();
    expect(legacy).toMatchObject({ flow: 'legacy', pushedDocuments: 'push-again' });
    expect(legacy?.message).toBe(
      'a switch to the embedding model "legacy-model" is in progress (legacy flow, switchover reindex): the new index is built by running connectors, which never produce pushed documents: they reach it only when pushed again before the swap; pushes meanwhile write both indexes, and searches read the current index until the swap',
    );
    const report = await kis.doctor();
    const check = report.checks.find((c) => c.name === 'model switch');
    expect(check).toMatchObject({ ok: true, warning: true, detail: legacy?.message });
    expect(check?.fix).toBe(
      'push the documents of every pair again before the swap, so the new index has them',
    );
    expect(report.modelSwitch?.flow).toBe('legacy');
    expect(report.summary.ok).toBe(true);
    emu.modelSwitch.finish();
  });
});
