/**
 * What changed between two commits, by `git diff-tree -r -M -z`: added, modified and renamed
 * files with their new blob ids (read), deleted ones and the old side of renames (deleted).
 * Unchanged files are never listed, read or hashed.
 */

import { nulFields } from './records.js';
import type { Repository } from './repo.js';
import { gitProcess } from './run-git.js';

/** A file to read (added, modified, the new side of a rename or copy). */
export interface ChangedFile {
  path: string;
  blob: string;
  /** The path it was renamed from, for a rename. */
  from?: string | undefined;
}

export interface TreeChanges {
  changed: ChangedFile[];
  /** Paths gone: deleted, or the old side of a rename. */
  removed: string[];
}

const FILE_MODES = new Set(['100644', '100755']);

/** The changes from `older` to `newer`. */
export async function treeChanges(
  repo: Repository,
  older: string,
  newer: string,
): Promise<TreeChanges> {
  const child = gitProcess(
    ['diff-tree', '-r', '-M', '-z', '--no-commit-id', older, newer],
    repo.dir,
  );
  const changes: TreeChanges = { changed: [], removed: [] };
  let meta: string[] | undefined;
  let paths: string[] = [];
  const take = () => {
    if (!meta) return;
    // :<old mode> <new mode> <old blob> <new blob> <status>
    const [, newMode, , blob, status] = meta;
    const kind = (status as string)[0];
    const isFile = FILE_MODES.has(newMode as string);
    if (kind === 'D') changes.removed.push(paths[0] as string);
    else if (kind === 'R') {
      changes.removed.push(paths[0] as string);
      if (isFile)
        changes.changed.push({ path: paths[1] as string, blob: blob as string, from: paths[0] });
    } else if (kind === 'C') {
      if (isFile) changes.changed.push({ path: paths[1] as string, blob: blob as string });
    } else if (isFile) changes.changed.push({ path: paths[0] as string, blob: blob as string });
    else changes.removed.push(paths[0] as string); // a file that became a link or submodule
    meta = undefined;
    paths = [];
  };
  for await (const field of nulFields(child)) {
    if (field.startsWith(':') && (meta === undefined || paths.length >= pathsOf(meta))) {
      take();
      meta = field.slice(1).split(' ');
      continue;
    }
    paths.push(field);
  }
  take();
  return changes;
}

/** How many paths follow a record: two for renames and copies. */
function pathsOf(meta: readonly string[]): number {
  const kind = (meta[4] ?? '')[0];
  return kind === 'R' || kind === 'C' ? 2 : 1;
}
