/**
 * `kis ingest` without `--cc-pair`, as a newcomer runs it: it says the documents go to pair 1,
 * the server's default ingestion pair, and keeps that pair's journal as for any pair, so a second
 * run and `kis sync --cc-pair 1` send nothing again, and the documents stored are those
 * `--cc-pair 1` stores.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeTree } from '@kis/test-support';
import { beforeEach, describe, expect, it } from 'vitest';
import { pairJournalFile } from '../../src/internal/pair-journal.js';
import { emulatorAndFolder, jsonLines, kis } from '../helpers/cli.js';

const ctx = emulatorAndFolder('kis-default-pair-', (work) =>
  writeTree(join(work, 'd'), { 'a.txt': 'alpha', 'b.md': '# Beta\n\nbeta text', 'c/c.txt': 'c' }),
);
const run = (args: string[]) => kis(args, { env: ctx.env, cwd: ctx.work });
const summaryOf = (stdout: string) => jsonLines(stdout).at(-1)?.summary as Record<string, unknown>;
const stored = () =>
  ctx.emu.state
    .documents()
    .map((d) => `${d.id} ${d.cc_pair_ids.join(',')}`)
    .sort();
const NOTE =
  "no --cc-pair: documents go to pair 1, the server's default ingestion pair (give --cc-pair N for another)";

beforeEach(async () => {
  ctx.emu.state.reset();
  await rm(join(ctx.work, '.kis'), { recursive: true, force: true });
});

describe('kis ingest without --cc-pair', () => {
  it("says where the documents go and keeps pair 1's journal", async () => {
    const first = await run(['ingest', 'd']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr.split('\n')).toContain(NOTE);
    expect(first.stdout).toContain('Done: 3 document(s) ingested into cc pair 1 in');
    expect(stored()).toEqual(['d%2Fa.txt 1', 'd%2Fb.md 1', 'd%2Fc%2Fc.txt 1']);
    expect(existsSync(join(ctx.work, pairJournalFile(ctx.emu.baseUrl, 1)))).toBe(true);

    const again = await run(['--json', 'ingest', 'd']);
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again.stdout)).toMatchObject({ created: 0, updated: 0, skipped: 3 });
  });

  it('shares the journal with --cc-pair 1 and kis sync of pair 1, which send nothing', async () => {
    expect((await run(['ingest', 'd'])).code).toBe(0);
    const before = stored();

    const explicit = await run(['--json', 'ingest', 'd', '--cc-pair', '1']);
    expect(explicit.code, explicit.stderr).toBe(0);
    expect(explicit.stderr).not.toContain('no --cc-pair');
    expect(summaryOf(explicit.stdout)).toMatchObject({ created: 0, updated: 0, skipped: 3 });

    const sync = await run(['--json', 'sync', 'd', '--cc-pair', '1']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(jsonLines(sync.stdout).find((l) => 'plan' in l && !('document_id' in l))).toMatchObject({
      plan: { create: 0, update: 0, unchanged: 3, delete: 0 },
    });

    // sent again without the journal, every document is one the default pair already stored
    const resent = await run(['--json', 'ingest', 'd', '--cc-pair', '1', '--no-journal']);
    expect(summaryOf(resent.stdout)).toMatchObject({ created: 0, updated: 3 });
    expect(stored()).toEqual(before);
  });
});
