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
    out.push(e.type === 'file' ? e.file.key : `error:${e.ref}:${e.reason}`);
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
