import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '@kis/emulator';
import { PNG_1X1, writeTree } from '@kis/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  collect,
  emulator,
  envFor,
  journalEntries,
  jsonLines,
  kis,
  spawnKis,
  waitForJournal,
} from '../helpers/cli.js';

const FILES = 240;
let emu: Emulator;
let work: string;
let env: Record<string, string>;
let expectedIds: string[];

beforeAll(async () => {
  assertBuilt();
  // 40 ms of service time per ingestion request keeps the run long enough to interrupt.
  emu = await emulator({ latencyMs: 40 });
  env = envFor(emu);
  work = await mkdtemp(join(tmpdir(), 'kis-resume-'));
  const files: Record<string, string | Buffer> = {};
  for (let i = 0; i < FILES; i++) {
    const name = `big/part-${String(Math.floor(i / 50))}/doc-${String(i).padStart(4, '0')}`;
    if (i % 40 === 0) files[`${name}.png`] = PNG_1X1;
    else files[`${name}.md`] = `# Document ${i}\n\nBody of document ${i}.`;
  }
  await writeTree(work, files);
  expectedIds = Object.keys(files)
    .map((k) => k.replaceAll('/', '%2F'))
    .sort();
});

afterAll(async () => {
  await emu?.close();
  await rm(work, { recursive: true, force: true });
});

beforeEach(() => {
  emu.state.reset();
});

function storedIds(): string[] {
  return emu.state
    .documents({ limit: -1 })
    .map((d) => d.id)
    .sort();
}

describe('resumable ingestion', () => {
  it('loses nothing when killed with SIGKILL: the re-run sends every missing document exactly once', async () => {
    const journal = join(work, 'kill9.jsonl');
    const args = ['--json', 'ingest', 'big', '--journal', journal, '--concurrency', '4'];
    const child = spawnKis(args, { env, cwd: work });
    const done = collect(child);
    await waitForJournal(journal, 40, child);
    child.kill('SIGKILL');
    const killed = await done;
    expect(killed.signal).toBe('SIGKILL');
    const acknowledged = new Set(journalEntries(journal).map((e) => e.id));
    expect(acknowledged.size).toBeGreaterThanOrEqual(40);
    expect(acknowledged.size).toBeLessThan(FILES);

    const rerun = await kis(args, { env, cwd: work });
    expect(rerun.code).toBe(0);
    const summary = jsonLines(rerun.stdout).at(-1)?.summary as Record<
      'created' | 'updated' | 'skipped' | 'failed',
      number
    >;
    expect(summary.failed).toBe(0);
    expect(summary.skipped).toBe(acknowledged.size);
    expect(summary.created + summary.updated + summary.skipped).toBe(FILES);
    // Documents the server stored but the killed run never recorded are re-sent as upserts.
    expect(storedIds()).toEqual(expectedIds);
    // A third run has nothing left to send.
    const third = await kis(args, { env, cwd: work });
    expect(jsonLines(third.stdout).at(-1)?.summary).toMatchObject({
      skipped: FILES,
      created: 0,
      updated: 0,
    });
    // Image uploads are remembered in the journal, so the image was uploaded once only.
    expect(emu.state.files()).toHaveLength(1);
  });

  it('finishes and records the requests in flight on Ctrl-C, exits 130, and resumes', async () => {
    const journal = join(work, 'sigint.jsonl');
    const args = ['--json', 'ingest', 'big', '--journal', journal, '--concurrency', '6'];
    const child = spawnKis(args, { env, cwd: work });
    const done = collect(child);
    await waitForJournal(journal, 30, child);
    child.kill('SIGINT');
    const interrupted = await done;
    expect(interrupted.code).toBe(130);
    const summary = jsonLines(interrupted.stdout).at(-1)?.summary as Record<string, unknown>;
    // (a document read but not yet sent when Ctrl-C came ends `aborted`, unsent: checked below)
    expect(summary).toMatchObject({ interrupted: true, failed: 0 });
    expect(interrupted.stderr).toContain(
      `interrupted; run the same command again to resume (its journal, ${journal}, skips`,
    );
    // Every request in flight was finished and recorded: the server holds exactly the journal.
    const acknowledged = journalEntries(journal)
      .map((e) => e.id)
      .sort();
    expect(storedIds()).toEqual(acknowledged);
    expect((summary.created as number) + (summary.updated as number)).toBe(acknowledged.length);

    const rerun = await kis(args, { env, cwd: work });
    expect(rerun.code).toBe(0);
    expect(jsonLines(rerun.stdout).at(-1)?.summary).toMatchObject({
      skipped: acknowledged.length,
      created: FILES - acknowledged.length,
      updated: 0,
      failed: 0,
    });
    expect(storedIds()).toEqual(expectedIds);
  });

  it('re-sends a document whose content changed since it was recorded', async () => {
    const journal = join(work, 'changed.jsonl');
    const doc = (text: string) =>
      `${JSON.stringify({ id: 'j-1', semantic_identifier: 'J', sections: [{ text }], metadata: {} })}\n`;
    const first = await kis(['--json', 'ingest', '-', '--journal', journal], {
      env,
      cwd: work,
      input: doc('v1'),
    });
    expect(jsonLines(first.stdout).at(-1)?.summary).toMatchObject({ created: 1 });
    const same = await kis(['--json', 'ingest', '-', '--journal', journal], {
      env,
      cwd: work,
      input: doc('v1'),
    });
    expect(jsonLines(same.stdout).at(-1)?.summary).toMatchObject({ skipped: 1 });
    const changed = await kis(['--json', 'ingest', '-', '--journal', journal], {
      env,
      cwd: work,
      input: doc('v2'),
    });
    expect(jsonLines(changed.stdout).at(-1)?.summary).toMatchObject({ updated: 1, skipped: 0 });
    expect(emu.state.document('j-1')?.sections).toEqual([expect.objectContaining({ text: 'v2' })]);
  });
});
