/**
 * The check `kis ingest` and `kis sync` make before their first document, against the emulator of
 * the test project's profile: a pair the server does not know, or one being deleted, is one
 * error naming it up front, and nothing is sent. (A key without the rights:
 * connector-lifecycle.test.ts.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '@kis/emulator';
import { writeTree } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, emulator, envFor, kis } from '../helpers/cli.js';
import { api, expectOneError, literal, newPair, pairOf } from '../helpers/pairs.js';

let emu: Emulator;
let work: string;
let env: Record<string, string>;

beforeAll(async () => {
  assertBuilt();
  emu = await emulator();
  env = envFor(emu);
  work = await mkdtemp(join(tmpdir(), 'kis-pair-check-'));
  await writeTree(work, { 'notes.txt': 'alpha beta gamma', 'dir/a.txt': 'a' });
});

afterAll(async () => {
  await emu?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the pair check of kis ingest and kis sync', () => {
  it('an unknown pair is one error up front naming it, and nothing is sent (exit 2)', async () => {
    const stored = emu.state.documents().length;
    const pattern = new RegExp(
      `^error: --cc-pair 999: no such pair on ${literal(emu.baseUrl)}, or not one this key may reach \\(404 Not Found \\(".+"\\)\\)$`,
    );
    expectOneError(
      await kis(['ingest', 'notes.txt', 'dir', '--cc-pair', '999'], { env, cwd: work }),
      2,
      pattern,
    );
    expectOneError(await kis(['sync', 'dir', '--cc-pair', '999'], { env, cwd: work }), 2, pattern);
    expect(emu.state.documents()).toHaveLength(stored);
  });

  it('a pair being deleted is one error up front (exit 2)', async () => {
    // deletions that take a minute: the pair stays DELETING while the command runs
    const slow = await emulator({ deletionDelayMs: 60_000 });
    try {
      const gamma = await newPair(slow, 'gamma');
      const pair = pairOf(slow, gamma);
      await api(slow, 'POST', '/manage/admin/deletion-attempt', {
        connector_id: pair?.connector_id,
        credential_id: 0,
      });
      expectOneError(
        await kis(['ingest', 'notes.txt', '--cc-pair', String(gamma)], {
          env: envFor(slow),
          cwd: work,
        }),
        2,
        new RegExp(
          `^error: --cc-pair ${gamma}: pair ${gamma} "gamma" is being deleted; documents sent to it would be removed with it$`,
        ),
      );
      expect(slow.state.documents()).toHaveLength(0);
    } finally {
      await slow.close();
    }
  });
});
