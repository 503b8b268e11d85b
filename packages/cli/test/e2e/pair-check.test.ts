import { writeTree } from '@kis/test-support';
import { describe, expect, it } from 'vitest';
import { emulator, emulatorAndFolder, envFor, kis } from '../helpers/cli.js';
import { api, expectOneError, literal, newPair, pairOf } from '../helpers/pairs.js';

const ctx = emulatorAndFolder('kis-pair-check-', (work) =>
  writeTree(work, { 'notes.txt': 'alpha beta gamma', 'dir/a.txt': 'a' }),
);

describe('the pair check of kis ingest, kis sync and kis docs list', () => {
  it('an unknown pair is one error up front naming it, and nothing is sent (exit 2)', async () => {
    const stored = ctx.emu.state.documents().length;
    const pattern = new RegExp(
      `^error: --cc-pair 999: no such pair on ${literal(ctx.emu.baseUrl)}, or not one this key may reach \\(404 Not Found \\(".+"\\)\\)$`,
    );
    expectOneError(
      await kis(['ingest', 'notes.txt', 'dir', '--cc-pair', '999'], {
        env: ctx.env,
        cwd: ctx.work,
      }),
      2,
      pattern,
    );
    expectOneError(
      await kis(['sync', 'dir', '--cc-pair', '999'], { env: ctx.env, cwd: ctx.work }),
      2,
      pattern,
    );
    expect(ctx.emu.state.documents()).toHaveLength(stored);
  });

  it('every command that takes a pair says the same of an unknown one, exit 2', async () => {
    const run = (args: string[]) => kis(args, { env: ctx.env, cwd: ctx.work });
    const unknown = (label: string) =>
      new RegExp(
        `^error: ${label}: no such pair on ${literal(ctx.emu.baseUrl)}, or not one this key may reach \\(404 Not Found \\(".+"\\)\\)$`,
      );
    const listed = await run(['docs', 'list', '--cc-pair', '999']);
    expectOneError(listed, 2, unknown('--cc-pair 999'));
    expect(listed.stdout).toBe('');
    const ingested = await run(['ingest', 'notes.txt', '--cc-pair', '999']);
    expect(ingested.stderr).toBe(listed.stderr);
    expectOneError(
      await run(['--json', 'docs', 'list', '--cc-pair', '999']),
      2,
      unknown('--cc-pair 999'),
    );
    expectOneError(await run(['connector', 'status', '999']), 2, unknown('pair 999'));
    expectOneError(await run(['connector', 'pause', '999']), 2, unknown('pair 999'));
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
          cwd: ctx.work,
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
