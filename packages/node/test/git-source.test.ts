/**
 * The git source on repositories built here (git init, commits, branches, tags, a rename, a
 * rewritten history, a shallow clone): files as a folder's documents, read from their blobs;
 * syncs after a commit that send exactly what changed and delete what is gone (renames too),
 * never reading an unchanged file; and the errors and full re-reads said aloud.
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createKisClient, type KisClient } from '@kis/client';
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type GitSourceOptions,
  gitSource,
  openJournal,
  parseGitLocation,
  sync,
} from '../src/index.js';

const git = (dir: string, ...args: string[]) =>
  execFileSync(
    'git',
    [
      '-c',
      'user.name=Kis Test',
      '-c',
      'user.email=kis@example.com',
      '-c',
      'init.defaultBranch=main',
      ...args,
    ],
    {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_COMMITTER_DATE: '2024-05-01T10:00:00Z',
        GIT_AUTHOR_DATE: '2024-05-01T10:00:00Z',
      },
    },
  ).trim();

function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

function commit(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

/** A commit of everything at `date` (committer and author). */
function commitAt(dir: string, message: string, date: string): void {
  git(dir, 'add', '-A');
  execFileSync(
    'git',
    ['-c', 'user.name=Kis Test', '-c', 'user.email=kis@example.com'].concat([
      'commit',
      '-q',
      '-m',
      message,
    ]),
    {
      cwd: dir,
      env: { ...process.env, GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date },
    },
  );
}

describe('gitSource', () => {
  let work: string;
  let emulator: Emulator;
  let kis: KisClient;
  let ccPairId: number;
  const warnings: string[] = [];
  const ignored: string[] = [];

  /** A new repository `handbook` under its own folder, with a first commit. */
  function handbook(tag: string): string {
    const dir = join(work, tag, 'handbook');
    mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q');
    write(dir, {
      'README.md': '---\ntitle: Handbook\nowner: docs\n---\nHow we work.\n',
      'guide/setup.md': '# Setup\n\nInstall it.\n',
      'guide/faq.html': '<title>FAQ</title><p>Ask here.</p>',
      'notes.txt': 'Plain notes.\n',
      'logo.svg': '<svg/>',
      '.github/workflow.md': '# CI\n',
    });
    for (let i = 0; i < 6; i++)
      write(dir, { [`pages/page-${i}.md`]: `# Page ${i}\n\nText ${i}.\n` });
    commit(dir, 'first');
    return dir;
  }

  const source = (repository: string, options: Partial<GitSourceOptions> = {}) =>
    gitSource({
      repository,
      onWarning: (_ref, m) => warnings.push(m),
      onIgnored: (ref, reason) => ignored.push(`${ref}: ${reason}`),
      ...options,
    });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'kis-git-'));
    emulator = await startEmulator({ port: 0, dbPath: ':memory:' });
  });
  afterAll(async () => {
    await emulator?.close();
    rmSync(work, { recursive: true, force: true });
  });
  beforeEach(async () => {
    emulator.state.reset();
    warnings.length = 0;
    ignored.length = 0;
    kis = createKisClient({
      baseUrl: emulator.baseUrl,
      apiKey: emulator.adminKey,
      logLevel: 'off',
    });
    const setup = await kis.setupConnector({
      connector: {
        name: 'Handbook',
        source: 'file',
        input_type: 'load_state',
        access_type: 'public',
        connector_specific_config: { file_locations: [] },
      },
    });
    ccPairId = setup.ccPairId as number;
  });

  it('sends the files a folder source reads, with path, commit and link', async () => {
    const dir = handbook('full');
    const head = git(dir, 'rev-parse', 'HEAD');
    const handbookSource = source(dir, {
      link: 'https://git.example.com/handbook/blob/{ref}/{path}',
    });
    const summary = await kis.ingestMany(handbookSource, { ccPairId }).done();
    handbookSource.close();
    expect(summary).toMatchObject({ created: 10, failed: 0 });
    expect(ignored.sort()).toEqual([
      'handbook/.github/workflow.md: hidden (a part of its path starts with ".")',
      'handbook/logo.svg: unsupported file type .svg',
    ]);
    expect(emulator.state.document('handbook%2FREADME.md')).toMatchObject({
      semantic_identifier: 'Handbook',
      source: 'file',
      metadata: { owner: 'docs', file_type: 'md', path: 'README.md', commit: head },
      sections: [
        { text: 'How we work.\n', link: 'https://git.example.com/handbook/blob/main/README.md' },
      ],
      doc_updated_at: expect.stringMatching(/^2024-05-01T10:00:00/),
    });
    expect(emulator.state.document('handbook%2Fguide%2Ffaq.html')?.semantic_identifier).toBe('FAQ');
  });

  it('syncs a commit: only what changed is read and sent, renames delete the old id', async () => {
    const dir = handbook('incremental');
    const journal = openJournal(join(work, 'incremental.jsonl'));
    const first = source(pathToFileURL(dir).href, { state: journal });
    const s1 = await sync(kis, first, { ccPairId, owns: first.owns, journal, prune: true });
    const done1 = await s1.run().done();
    expect(done1).toMatchObject({ created: 10, failed: 0 });
    expect(await first.finish(done1)).toBe(true);
    first.close();

    write(dir, {
      'notes.txt': 'Changed notes.\n',
      'pages/page-1.md': '# Page 1\n\nNew text.\n',
      'pages/new.md': '# New\n',
    });
    unlinkSync(join(dir, 'pages/page-2.md'));
    renameSync(join(dir, 'pages/page-3.md'), join(dir, 'pages/renamed.md'));
    commit(dir, 'second');

    const before = emulator.stats().ingestion.requests;
    const second = source(dir, { state: journal });
    let read = 0;
    const counted = {
      presentIds: () => second.presentIds(),
      async *[Symbol.asyncIterator]() {
        for await (const item of second) {
          read++;
          yield item;
        }
      },
    };
    const s2 = await sync(kis, counted, { ccPairId, owns: second.owns, journal, prune: true });
    expect(second.run?.mode).toBe('incremental');
    // the diff alone: two changed files, one new, one renamed; no unchanged file listed
    expect(read).toBe(4);
    expect(s2.plan.create.map((e) => e.documentId).sort()).toEqual([
      'handbook%2Fpages%2Fnew.md',
      'handbook%2Fpages%2Frenamed.md',
    ]);
    expect(s2.plan.update.map((e) => e.documentId).sort()).toEqual([
      'handbook%2Fnotes.txt',
      'handbook%2Fpages%2Fpage-1.md',
    ]);
    expect(s2.plan.delete.map((e) => e.documentId).sort()).toEqual([
      'handbook%2Fpages%2Fpage-2.md',
      'handbook%2Fpages%2Fpage-3.md',
    ]);
    const done2 = await s2.run().done();
    expect(done2).toMatchObject({ created: 2, updated: 2, deleted: 2, failed: 0 });
    expect(emulator.stats().ingestion.requests - before).toBe(4);
    expect(await second.finish(done2)).toBe(true);
    second.close();

    // nothing new: nothing read, nothing sent, nothing deleted
    const third = source(dir, { state: journal });
    const s3 = await sync(kis, third, { ccPairId, owns: third.owns, journal, prune: true });
    expect(third.run).toMatchObject({ mode: 'incremental' });
    expect(s3.plan.create.length + s3.plan.update.length + s3.plan.delete.length).toBe(0);
    third.close();
    journal.close();
    expect(readFileSync(join(work, 'incremental.jsonl'), 'utf8')).toContain('"state":"git:');
  });

  it('reads a branch, a tag or a commit; an unknown ref is one line', async () => {
    const dir = handbook('refs');
    const first = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'tag', 'v1');
    git(dir, 'checkout', '-q', '-b', 'draft');
    write(dir, { 'draft.md': '# Draft\n' });
    commit(dir, 'draft');
    git(dir, 'checkout', '-q', 'main');
    const ids = async (ref: string) => {
      const s = source(dir, { ref, idPrefix: `${ref.slice(0, 8)}/` });
      const out: string[] = [];
      for await (const item of s) out.push(item.id as string);
      s.close();
      return out;
    };
    expect(await ids('draft')).toContain('draft/draft.md');
    expect(await ids('v1')).not.toContain('v1/draft.md');
    expect((await ids(first)).length).toBe(10);
    await expect(source(dir, { ref: 'nope' }).check()).rejects.toThrow(
      `unknown ref "nope" in ${dir}: no branch, tag or commit of that name`,
    );
    await expect(source(join(work, 'missing')).check()).rejects.toThrow(
      /missing: no such directory$/,
    );
  });

  it('reads every file again, said aloud, after a force push', async () => {
    const dir = handbook('force');
    const journal = openJournal(join(work, 'force.jsonl'));
    const first = source(dir, { state: journal });
    const done1 = await (
      await sync(kis, first, { ccPairId, owns: first.owns, journal, prune: true })
    )
      .run()
      .done();
    expect(await first.finish(done1)).toBe(true);
    first.close();
    // rewrite the last commit: the synced one is no longer an ancestor
    write(dir, { 'notes.txt': 'Rewritten.\n' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--amend', '-m', 'rewritten');
    const before = emulator.stats().ingestion.requests;
    const again = source(dir, { state: journal });
    const s2 = await sync(kis, again, { ccPairId, owns: again.owns, journal, prune: true });
    expect(again.run?.mode).toBe('full');
    expect(warnings.join('\n')).toMatch(
      /is not an ancestor of main .*history was rewritten \(a force push\?\); reading every file/,
    );
    // every file listed, unchanged ones proven by their blob ids: one sent
    expect(s2.plan.update.map((e) => e.documentId)).toEqual(['handbook%2Fnotes.txt']);
    await s2.run().done();
    expect(emulator.stats().ingestion.requests - before).toBe(1);
    again.close();
    journal.close();
  });

  it('reads every file, said aloud, when a shallow clone lacks the last commit', async () => {
    const dir = handbook('shallow-origin');
    const older = git(dir, 'rev-parse', 'HEAD');
    write(dir, { 'later.md': '# Later\n' });
    commit(dir, 'later');
    const clone = join(work, 'shallow', 'handbook');
    mkdirSync(dirname(clone), { recursive: true });
    git(work, 'clone', '-q', '--depth', '1', pathToFileURL(dir).href, clone);
    const journal = openJournal(join(work, 'shallow.jsonl'));
    journal.recordState(`git:${clone}#main@handbook/`, { v: 1, commit: older });
    const s = source(clone, { state: journal });
    for await (const _ of s) {
      // read through: the run is decided first
    }
    s.close();
    expect(s.run?.mode).toBe('full');
    expect(warnings.join('\n')).toMatch(
      /is not in .*\(the repository is a shallow clone\): reading every file/,
    );
    journal.close();
  });

  it('dates each file by its last change: a new commit re-embeds only the files it changed', async () => {
    const dir = join(work, 'dated', 'handbook');
    mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q');
    write(dir, { 'a.md': '# A\n', 'b.md': '# B\n', 'c d.md': '# C\n' });
    commitAt(dir, 'first', '2025-01-01T00:00:00Z');
    write(dir, { 'b.md': '# B, again\n' });
    commitAt(dir, 'second', '2025-02-01T00:00:00Z');
    // each push from a fresh source and no journal, as a first run on another machine
    const push = async () => {
      const s = source(dir);
      const summary = await kis.ingestMany(s, { ccPairId }).done();
      s.close();
      return summary;
    };
    expect(await push()).toMatchObject({ created: 3, failed: 0 });
    const dated = (path: string) => emulator.state.document(`handbook%2F${path}`)?.doc_updated_at;
    expect([dated('a.md'), dated('b.md'), dated('c_d.md')]).toEqual([
      '2025-01-01T00:00:00.000Z',
      '2025-02-01T00:00:00.000Z',
      '2025-01-01T00:00:00.000Z',
    ]);
    write(dir, { 'c d.md': '# C, again\n' });
    commitAt(dir, 'third', '2025-03-01T00:00:00Z');
    const before = emulator.stats().ingestion.embeddings;
    expect(await push()).toMatchObject({ updated: 3, failed: 0 });
    expect(emulator.stats().ingestion.embeddings - before).toBe(1);
    expect(dated('c_d.md')).toBe('2025-03-01T00:00:00.000Z');
  });

  it('names remote repositories without their credentials', async () => {
    const s = source('https://kis:secret-token@127.0.0.1:1/acme/handbook.git', {
      cacheDir: join(work, 'cache'),
    });
    expect(s.repository).toBe('https://kis@127.0.0.1:1/acme/handbook.git');
    expect(s.idPrefix).toBe('handbook/');
    const failure = await s.check().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(failure?.message).toMatch(
      /^cannot fetch https:\/\/kis@127\.0\.0\.1:1\/acme\/handbook\.git: /,
    );
    expect(failure?.message).not.toContain('secret-token');
    expect(parseGitLocation('git+file:///srv/handbook#v1')).toEqual({
      repository: 'file:///srv/handbook',
      ref: 'v1',
    });
    expect(parseGitLocation('git+https://host/a/b.git')).toEqual({
      repository: 'https://host/a/b.git',
      ref: undefined,
    });
  });
});
