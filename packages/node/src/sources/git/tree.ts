/**
 * The files of a commit, listed by `git ls-tree -r -z` with their blob ids: a file's fingerprint
 * is its blob id, so a sync proves an unchanged file without reading or hashing it. No sizes
 * (`-l`): git would open every object for them, which costs a listing most of its time.
 */

import { nulFields } from './records.js';
import type { Repository } from './repo.js';
import { gitProcess } from './run-git.js';

/** A file of a commit: its path in the repository and its blob id. */
export interface TreeFile {
  path: string;
  blob: string;
}

/** Regular and executable files only: links and submodules are not documents. */
const FILE_MODES = new Set(['100644', '100755']);

/** Every file of `commit`, in git's order (by path), streamed. */
export async function* treeFiles(repo: Repository, commit: string): AsyncGenerator<TreeFile> {
  const child = gitProcess(['ls-tree', '-r', '-z', '--full-tree', commit], repo.dir);
  for await (const field of nulFields(child)) {
    // <mode> SP <type> SP <object> TAB <path>
    const tab = field.indexOf('\t');
    const [mode, type, blob] = field.slice(0, tab).split(' ');
    if (type !== 'blob' || !FILE_MODES.has(mode as string)) continue;
    yield { path: field.slice(tab + 1), blob: blob as string };
  }
}
