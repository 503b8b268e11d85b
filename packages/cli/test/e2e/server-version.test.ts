/**
 * `already_existed` read as the served release means it (compat notes §5): release 3.2.0 answers
 * it the other way round (true for a new document), and `kis ingest` still says created, then
 * updated. Deployed servers only: the seed plays no release.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '@kis/emulator';
import { writeTree } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, emulator, envFor, jsonLines, kis } from '../helpers/cli.js';
import { testProfile } from '../helpers/profile.js';

describe.runIf(testProfile() === 'deployed')('a server playing release 3.2.0', () => {
  let emu: Emulator;
  let work: string;
  beforeAll(async () => {
    assertBuilt();
    emu = await emulator({ serverVersion: '3.2.0' });
    work = await mkdtemp(join(tmpdir(), 'kis-release-'));
    await writeTree(work, { 'a.txt': 'alpha' });
  });
  afterAll(async () => {
    await emu?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('a first push is created, a second updated, though already_existed says the opposite', async () => {
    const push = async () => {
      const r = await kis(['--json', 'ingest', 'a.txt', '--cc-pair', '1', '--no-journal'], {
        env: envFor(emu),
        cwd: work,
      });
      expect(r.code, r.stderr).toBe(0);
      return jsonLines(r.stdout);
    };
    const first = await push();
    expect(first[0]).toMatchObject({ document_id: 'a.txt', status: 'created' });
    expect(first.at(-1)?.summary).toMatchObject({ created: 1, updated: 0 });
    const second = await push();
    expect(second[0]).toMatchObject({ document_id: 'a.txt', status: 'updated' });
    expect(second.at(-1)?.summary).toMatchObject({ created: 0, updated: 1 });
  });
});
