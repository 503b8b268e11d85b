/**
 * `kis ingest` and `kis sync` of a git repository (`git+file:///PATH#REF`), as users run them:
 * the built CLI with default flags against the emulator and real repositories built here. A full
 * run at a branch, tag or commit; incremental runs after a commit that edits, deletes and renames
 * (exactly those sent, the gone ones deleted); links with {ref}, {commit} and {path}; a run killed
 * with SIGKILL resuming without re-sending; a path that is not a repository and an unknown ref as
 * one line; a source kis.yaml declares.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '@kis/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  collect,
  emulator,
  envFor,
  jsonLines,
  type KisResult,
  kis,
  spawnKis,
  waitForJournal,
} from '../helpers/cli.js';
import { newPair } from '../helpers/pairs.js';

let emu: Emulator;
let env: Record<string, string>;
let work: string;

/** git in `dir`, with an author and a default branch of its own (no global configuration). */
const git = (dir: string, ...args: string[]) =>
  execFileSync(
    'git',
    [
      '-c',
      'user.name=Kis',
      '-c',
      'user.email=kis@example.com',
      '-c',
      'init.defaultBranch=main',
      ...args,
    ],
    { cwd: dir, encoding: 'utf8' },
  ).trim();

/** A repository `name` under the work folder with `files`, committed; its path. */
async function repository(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir, { recursive: true });
  git(dir, 'init', '-q');
  await write(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  return dir;
}

async function write(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

const summaryOf = (r: KisResult) =>
  jsonLines(r.stdout).find((l) => 'summary' in l)?.summary as Record<string, number>;
const sent = () => emu.stats().ingestion.requests;

beforeAll(async () => {
  assertBuilt();
  emu = await emulator();
  env = envFor(emu);
  work = await mkdtemp(join(tmpdir(), 'kis-git-'));
});
afterAll(async () => {
  await emu?.close();
  await rm(work, { recursive: true, force: true });
});

describe('kis ingest and kis sync of a git repository', () => {
  it('sends the files of a branch, then exactly what a commit edited, deleted and renamed', async () => {
    const repo = await repository('handbook', {
      'guide/intro.md': '# Intro\n\nWelcome.\n',
      'guide/setup.md': '# Setup\n\nInstall it.\n',
      'faq.txt': 'Ask here.\n',
      'old.txt': 'Old page.\n',
      'logo.svg': '<svg/>',
    });
    const pair = String(await newPair(emu, 'handbook', 'file'));
    const location = `git+file://${repo}#main`;
    const link = ['--link', 'https://git.example.com/handbook/blob/{ref}/{path}?at={commit}'];
    const dry = await kis(['ingest', location, '--dry-run'], { env, cwd: work });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('handbook/guide/intro.md\thandbook%2Fguide%2Fintro.md');
    expect(dry.stdout).toMatch(/4 document\(s\) valid, 0 failed, 1 ignored/);

    const first = await kis(['--json', 'sync', location, '--cc-pair', pair, '--prune', ...link], {
      env,
      cwd: work,
    });
    expect(first.code, first.stderr).toBe(0);
    expect(summaryOf(first)).toMatchObject({ created: 4, failed: 0 });
    const commit = git(repo, 'rev-parse', 'HEAD');
    expect(emu.state.document('handbook%2Fguide%2Fintro.md')).toMatchObject({
      semantic_identifier: 'intro.md',
      sections: [
        expect.objectContaining({
          link: `https://git.example.com/handbook/blob/main/guide/intro.md?at=${commit}`,
        }),
      ],
    });

    await write(repo, { 'guide/setup.md': '# Setup\n\nInstall it, then run it.\n' });
    await unlink(join(repo, 'old.txt'));
    git(repo, 'mv', 'faq.txt', 'questions.txt');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'second');
    const before = sent();
    const second = await kis(['--json', 'sync', location, '--cc-pair', pair, '--prune', ...link], {
      env,
      cwd: work,
    });
    expect(second.code, second.stderr).toBe(0);
    // the edit and the rename's new path; the deleted file and the rename's old path deleted
    expect(sent() - before).toBe(2);
    expect(summaryOf(second)).toMatchObject({ created: 1, updated: 1, deleted: 2, unchanged: 0 });
    expect(emu.state.document('handbook%2Ffaq.txt')).toBeUndefined();
    expect(emu.state.document('handbook%2Fquestions.txt')).toBeDefined();

    const third = await kis(['sync', location, '--cc-pair', pair, '--prune', ...link], {
      env,
      cwd: work,
    });
    expect(third.code).toBe(0);
    expect(third.stdout).toContain('0 to create, 0 to update, 0 unchanged, 0 to delete');
    expect(sent() - before).toBe(2);
  });

  it('reads a tag or a commit; what the journal holds is not sent again', async () => {
    const repo = await repository('notes', { 'a.md': '# A\n', 'b.md': '# B\n' });
    git(repo, 'tag', 'v1');
    const first = git(repo, 'rev-parse', 'HEAD');
    await write(repo, { 'c.md': '# C\n' });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'c');
    const pair = String(await newPair(emu, 'notes', 'file'));
    const tag = await kis(['--json', 'ingest', `git+file://${repo}#v1`, '--cc-pair', pair], {
      env,
      cwd: work,
    });
    expect(tag.code, tag.stderr).toBe(0);
    expect(summaryOf(tag)).toMatchObject({ created: 2 });
    const before = sent();
    const head = await kis(['--json', 'ingest', `git+file://${repo}#main`, '--cc-pair', pair], {
      env,
      cwd: work,
    });
    expect(head.code, head.stderr).toBe(0);
    expect(sent() - before).toBe(1);
    const pinned = await kis(
      ['--json', 'ingest', `git+file://${repo}#${first.slice(0, 10)}`, '--cc-pair', pair],
      { env, cwd: work },
    );
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(summaryOf(pinned)).toMatchObject({ created: 0, failed: 0 });
  });

  it('says on one line that a path is not a repository, or a ref names nothing', async () => {
    const plain = join(work, 'plain');
    await mkdir(plain, { recursive: true });
    const notRepo = await kis(['-q', 'ingest', `git+file://${plain}#main`], { env, cwd: work });
    expect(notRepo.code).toBe(2);
    expect(notRepo.stderr).toBe(`error: ${plain} is not a git repository\n`);
    const repo = await repository('refs', { 'a.md': '# A\n' });
    const unknown = await kis(['-q', 'ingest', `git+file://${repo}#nope`], { env, cwd: work });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `error: unknown ref "nope" in ${repo}: no branch, tag or commit of that name\n`,
    );
    const mapping = await kis(['-q', 'ingest', `git+file://${repo}`, '--table', 't'], {
      env,
      cwd: work,
    });
    expect(mapping.code).toBe(2);
    expect(mapping.stderr).toBe('error: --table: only with a database, not a repository\n');
    const remote = await kis(
      ['-q', 'ingest', 'git+https://kis:kis-token-7d1e@127.0.0.1:9/acme/docs.git#main'],
      { env, cwd: work },
    );
    expect(remote.code).toBe(3);
    expect(remote.stderr).toMatch(
      /^error: cannot fetch https:\/\/kis@127\.0\.0\.1:9\/acme\/docs\.git: /,
    );
    expect(remote.stderr + remote.stdout).not.toContain('kis-token-7d1e');
  });

  it('resumes a run killed with SIGKILL without re-sending what was acknowledged', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`pages/p${i}.md`] = `# Page ${i}\n\nText ${i}.\n`;
    const repo = await repository('big', files);
    const slow = await emulator({ latencyMs: 30 });
    try {
      const slowEnv = envFor(slow);
      const journal = join(work, 'big.jsonl');
      const args = ['ingest', `git+file://${repo}#main`, '--journal', journal];
      const child = spawnKis([...args, '--concurrency', '2'], { env: slowEnv, cwd: work });
      const done = collect(child);
      await waitForJournal(journal, 30, child);
      child.kill('SIGKILL');
      expect((await done).signal).toBe('SIGKILL');
      const again = await kis(['--json', ...args], { env: slowEnv, cwd: work });
      expect(again.code, again.stderr).toBe(0);
      expect(slow.state.documents({ limit: -1 })).toHaveLength(200);
      expect(slow.stats().ingestion.resent_after_ack).toBeLessThanOrEqual(2);
    } finally {
      await slow.close();
    }
  });

  it('syncs a repository kis.yaml declares, the path relative to the file', async () => {
    await repository('declared', { 'readme.md': '# Declared\n' });
    await writeFile(
      join(work, 'kis.yaml'),
      `connectors:
  - name: Declared docs
    source: file
    config: { file_locations: [] }
    documents:
      git: { repository: declared, ref: main, id_prefix: decl/ }
`,
    );
    const applied = await kis(['apply', '-f', 'kis.yaml'], { env, cwd: work });
    expect(applied.code, applied.stderr).toBe(0);
    const synced = await kis(['--json', 'sync', '--from', 'kis.yaml', 'Declared docs'], {
      env,
      cwd: work,
    });
    expect(synced.code, synced.stderr).toBe(0);
    expect(summaryOf(synced)).toMatchObject({ created: 1 });
    expect(emu.state.document('decl%2Freadme.md')).toBeDefined();
    const flags = await kis(['sync', '--from', 'kis.yaml', 'Declared docs', '--namespace', 'x/'], {
      env,
      cwd: work,
    });
    expect(flags.code).toBe(2);
    expect(flags.stderr).toBe(
      "error: --namespace: not with --from (the connector's entry in kis.yaml says it)\n",
    );
  });
});
