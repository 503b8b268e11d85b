import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTree } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilter, fileKey, walkFiles } from '../src/sources/walk.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kis-walk-'));
  await writeTree(dir, {
    'docs/a.md': 'a',
    'docs/b.txt': 'b',
    'docs/sub/c.md': 'c',
    'docs/sub/deeper/d.pdf': 'd',
    'docs/.hidden.md': 'h',
    'docs/.git/config': 'g',
    'docs/drafts/e.md': 'e',
    'other/f.md': 'f',
  });
  await symlink(join(dir, 'docs'), join(dir, 'docs/sub/loop'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function keys(
  roots: string[],
  filter = { include: [] as string[], exclude: [] as string[] },
): Promise<string[]> {
  const out: string[] = [];
  for (const e of walkFiles(roots, { baseDir: dir, filter })) {
    if (e.type === 'file') out.push(e.file.key);
    else if (e.type === 'error') out.push(`error:${e.ref}:${e.reason}`);
  }
  return out;
}

/** The hidden entries a walk says it left out. */
function hidden(
  roots: string[],
  filter = { include: [] as string[], exclude: [] as string[] },
): string[] {
  const out: string[] = [];
  for (const e of walkFiles(roots, { baseDir: dir, filter })) {
    if (e.type === 'hidden') out.push(`${e.ref}${e.directory ? '/' : ''}`);
  }
  return out;
}

describe('walkFiles', () => {
  it('walks recursively in name order, skipping hidden entries and not following directory links', async () => {
    expect(await keys([join(dir, 'docs')])).toEqual([
      'docs/a.md',
      'docs/b.txt',
      'docs/drafts/e.md',
      'docs/sub/c.md',
      'docs/sub/deeper/d.pdf',
    ]);
  });

  it('yields each file once when paths overlap, and takes explicitly named hidden files', async () => {
    expect(
      await keys([
        join(dir, 'docs/sub'),
        join(dir, 'docs'),
        join(dir, 'docs/a.md'),
        join(dir, 'docs/.hidden.md'),
      ]),
    ).toEqual([
      'docs/sub/c.md',
      'docs/sub/deeper/d.pdf',
      'docs/a.md',
      'docs/b.txt',
      'docs/drafts/e.md',
      'docs/.hidden.md',
    ]);
  });

  it('says which hidden entries it left out, once each, a hidden directory unwalked', () => {
    expect(hidden([join(dir, 'docs')])).toEqual(['docs/.git/', 'docs/.hidden.md']);
    // a hidden entry named as a root is walked, not left out; the filter applies to the rest
    expect(hidden([join(dir, 'docs'), join(dir, 'docs/.git')])).toEqual(['docs/.hidden.md']);
    expect(hidden([join(dir, 'docs')], { include: ['*.md'], exclude: [] })).toEqual([
      'docs/.hidden.md',
    ]);
    expect(hidden([join(dir, 'docs/sub')])).toEqual([]);
  });

  it('applies include and exclude globs to names and relative paths', async () => {
    expect(await keys([join(dir, 'docs')], { include: ['*.md'], exclude: ['drafts/**'] })).toEqual([
      'docs/a.md',
      'docs/sub/c.md',
    ]);
    expect(
      await keys([join(dir, 'docs')], { include: [], exclude: ['docs/sub/**', '*.txt'] }),
    ).toEqual(['docs/a.md', 'docs/drafts/e.md']);
  });

  it('reports a missing path and goes on', async () => {
    expect(await keys([join(dir, 'nope'), join(dir, 'other')])).toEqual([
      `error:${join(dir, 'nope')}:no such file or directory`,
      'other/f.md',
    ]);
  });

  it('reports an unreadable directory and goes on', async () => {
    if (process.getuid?.() === 0) return; // root reads everything
    const locked = join(dir, 'locked');
    await mkdir(locked, { mode: 0o000 });
    expect(await keys([locked, join(dir, 'other')])).toEqual([
      'error:locked:permission denied',
      'other/f.md',
    ]);
  });
});

describe('fileKey and createFilter', () => {
  it('keys files relative to the base directory, absolute outside it', () => {
    expect(fileKey('/base', '/base/x/y.md')).toBe('x/y.md');
    expect(fileKey('/base', '/elsewhere/y.md')).toBe('/elsewhere/y.md');
  });
  it('matches any of the given paths', () => {
    const accept = createFilter({ include: ['**/*.md'], exclude: ['**/secret/**'] });
    expect(accept(['a/b.md'])).toBe(true);
    expect(accept(['a/secret/b.md'])).toBe(false);
    expect(accept(['a/b.txt'])).toBe(false);
  });
});
