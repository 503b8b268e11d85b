/**
 * `doc_updated_at` is always sent (compat notes §5: a push without one is re-embedded at every
 * send), as a user runs `kis ingest` with default flags against the emulator of the test
 * project's profile, which counts embeddings: a folder's files go with their modification time, so
 * an unchanged folder pushed again from a fresh directory (no journal) re-embeds nothing; a change
 * of metadata alone re-embeds; JSONL lines without a time keep the time their journal recorded.
 */
import { rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeTree } from '@kis/test-support';
import { beforeEach, describe, expect, it } from 'vitest';
import { emulatorAndFolder, jsonLines, kis } from '../helpers/cli.js';

const ctx = emulatorAndFolder('kis-updated-at-', (work) =>
  writeTree(join(work, 'first'), {
    'docs/a.txt': 'alpha',
    'docs/guide.md': '---\ntitle: Guide\ntags: [onboarding]\n---\nHow we work.\n',
  }),
);
const embeddings = () => ctx.emu.stats().ingestion.embeddings;
const requests = () => ctx.emu.stats().ingestion.requests;
const summaryOf = (stdout: string) => jsonLines(stdout).at(-1)?.summary as Record<string, unknown>;
/** `kis --json ingest ARGS… --cc-pair 1` from `cwd` (under the work folder). */
async function ingest(cwd: string, ...args: string[]) {
  const r = await kis(['--json', 'ingest', ...args, '--cc-pair', '1'], {
    env: ctx.env,
    cwd: join(ctx.work, cwd),
  });
  expect(r.code, r.stderr).toBe(0);
  return summaryOf(r.stdout);
}

beforeEach(async () => {
  ctx.emu.state.reset();
  // each test starts with no journal anywhere: the server holds nothing either
  for (const dir of ['first', 'elsewhere', 'lines', 'bare']) {
    await rm(join(ctx.work, dir, '.kis'), { recursive: true, force: true });
  }
});

describe('a folder: files go with their modification time', () => {
  it('an unchanged corpus pushed again from a fresh directory, with no journal, re-embeds nothing', async () => {
    const docs = join(ctx.work, 'first', 'docs');
    expect(await ingest('first', 'docs')).toMatchObject({ created: 2 });
    expect(ctx.emu.state.document('docs%2Fa.txt')?.doc_updated_at).toMatch(/^\d{4}-.*Z$/);
    const before = embeddings();
    await writeTree(join(ctx.work, 'elsewhere'), { 'note.txt': 'a directory of its own' });
    // a new directory: no journal there, every file is sent again
    expect(await ingest('elsewhere', docs)).toMatchObject({ updated: 2, skipped: 0 });
    expect(embeddings()).toBe(before);
  });

  it('a change of front matter tags alone re-embeds that file', async () => {
    const guide = join(ctx.work, 'first', 'docs', 'guide.md');
    await ingest('first', 'docs');
    const before = embeddings();
    await writeFile(guide, '---\ntitle: Guide\ntags: [handbook]\n---\nHow we work.\n');
    const later = new Date(Date.now() + 60_000);
    await utimes(guide, later, later);
    expect(await ingest('first', 'docs')).toMatchObject({ updated: 1, skipped: 1 });
    expect(embeddings()).toBe(before + 1);
    expect(ctx.emu.state.document('docs%2Fguide.md')?.metadata).toMatchObject({
      tags: ['handbook'],
    });
  });
});

describe('JSONL lines without doc_updated_at', () => {
  const line = (id: string, team: string) =>
    JSON.stringify({
      id,
      semantic_identifier: id,
      sections: [{ text: `${id} text` }],
      metadata: { team },
    });

  it('unchanged lines with a journal send nothing again; a changed metadata field re-embeds', async () => {
    await writeTree(join(ctx.work, 'lines'), {
      'export.jsonl': `${line('l1', 'red')}\n${line('l2', 'red')}\n`,
    });
    expect(await ingest('lines', 'export.jsonl')).toMatchObject({ created: 2 });
    const stamp = ctx.emu.state.document('l1')?.doc_updated_at;
    expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    const [sent, embedded] = [requests(), embeddings()];
    expect(await ingest('lines', 'export.jsonl')).toMatchObject({ skipped: 2, created: 0 });
    expect([requests(), embeddings()]).toEqual([sent, embedded]);

    await writeTree(join(ctx.work, 'lines'), {
      'export.jsonl': `${line('l1', 'blue')}\n${line('l2', 'red')}\n`,
    });
    expect(await ingest('lines', 'export.jsonl')).toMatchObject({ updated: 1, skipped: 1 });
    expect(embeddings()).toBe(embedded + 1);
    expect(ctx.emu.state.document('l1')?.metadata).toEqual({ team: 'blue' });
    expect(Date.parse(ctx.emu.state.document('l1')?.doc_updated_at ?? '')).toBeGreaterThan(
      Date.parse(stamp ?? ''),
    );
  });

  it('with neither a time nor a journal, every send re-embeds (the README says so)', async () => {
    await writeTree(join(ctx.work, 'bare'), { 'export.jsonl': `${line('n1', 'red')}\n` });
    await ingest('bare', 'export.jsonl', '--no-journal');
    const before = embeddings();
    expect(await ingest('bare', 'export.jsonl', '--no-journal')).toMatchObject({ updated: 1 });
    expect(embeddings()).toBe(before + 1);
  });
});
