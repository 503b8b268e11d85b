/**
 * A model switch in progress, as `kis doctor` and `kis connector status` say it (compat notes
 * §8): what it means for pushed documents (copied by the port flow, left out of the new index by
 * the legacy flow unless pushed again) and what `kis verify --repair` does about it. Against the
 * emulator of the test project's profile, its ports held long enough to read the switch.
 */

import type { Emulator } from '@kis/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, emulator, envFor, jsonLines, kis } from '../helpers/cli.js';
import { newPair } from '../helpers/pairs.js';

let emu: Emulator;
let env: Record<string, string>;
let pair: number;

beforeAll(async () => {
  assertBuilt();
  emu = await emulator({ tasks: { portMs: 60_000 } });
  env = envFor(emu);
  pair = await newPair(emu, 'Site');
});

afterAll(async () => {
  await emu?.close();
});

describe('a model switch in progress', () => {
  it('legacy flow: the doctor warns that pushed documents need pushing again, and says what kis verify --repair does', async () => {
    emu.modelSwitch.start({ model_name: 'legacy-model', use_port_flow: false });
    try {
      const r = await kis(['doctor'], { env });
      expect(r.code, r.stdout).toBe(0);
      const lines = r.stdout.split('\n');
      const at = lines.findIndex((l) => l.startsWith('! model switch: '));
      expect(lines.slice(at, at + 3)).toEqual([
        '! model switch: a switch to the embedding model "legacy-model" is in progress (legacy flow, switchover reindex): the new index is built by running connectors, which never produce pushed documents: they reach it only when pushed again before the swap; pushes meanwhile write both indexes, and searches read the current index until the swap',
        '  fix: push the documents of every pair again before the swap, so the new index has them',
        '  kis verify --repair re-pushes a pair so the new index has its pushed documents; run it for each pair you push into before the swap',
      ]);
      expect(lines).toContain(
        `All ${lines.filter((l) => /^[✓!✗] /.test(l)).length} checks passed, 1 with a warning.`,
      );

      const status = await kis(['connector', 'status', String(pair)], { env });
      expect(status.code).toBe(0);
      expect(status.stderr.split('\n').filter(Boolean)).toEqual([
        'warning: a switch to the embedding model "legacy-model" is in progress (legacy flow, switchover reindex): the new index is built by running connectors, which never produce pushed documents: they reach it only when pushed again before the swap; pushes meanwhile write both indexes, and searches read the current index until the swap',
        '  kis verify --repair re-pushes a pair so the new index has its pushed documents; run it for each pair you push into before the swap',
      ]);
      const json = jsonLines(
        (await kis(['--json', 'connector', 'status', String(pair)], { env })).stdout,
      );
      expect(json[1]).toEqual({
        model_switch: {
          model_name: 'legacy-model',
          flow: 'legacy',
          switchover: 'reindex',
          pushed_documents: 'push-again',
          message: expect.stringContaining('(legacy flow, switchover reindex)'),
        },
      });
    } finally {
      emu.modelSwitch.finish();
    }
  });

  it('port flow: pushed documents are copied; nothing to re-push', async () => {
    emu.modelSwitch.start({ model_name: 'port-model', use_port_flow: true });
    try {
      const r = await kis(['doctor'], { env });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(
        '! model switch: a switch to the embedding model "port-model" is in progress (port flow, switchover reindex): the documents of every pair but deleting and invalid ones, pushed ones included, are copied into the new index;',
      );
      expect(r.stdout).toContain(
        '  kis verify --repair has nothing to re-push for this switch: it copies pushed documents with their pair',
      );
    } finally {
      emu.modelSwitch.finish();
    }
    const none = await kis(['connector', 'status', String(pair)], { env });
    expect(none.stderr).toBe('');
  });
});
