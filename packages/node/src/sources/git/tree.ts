/**
 * The files of a commit, listed by `git ls-tree -r -l -z` with their blob ids and sizes: a file's
 * fingerprint is its blob id, so a sync proves an unchanged file without reading or hashing it.
 */

import { nulFields } from './records.js';
import type { Repository } from './repo.js';
import { gitProcess } from './run-git.js';

/** A file of a commit: its path in the repository, blob id and size in bytes. */
export interface TreeFile {
  path: string;
  blob: string;
  size: number;
}

/** Regular and executable files only: links and submodules are not documents. */
const FILE_MODES = new Set(['100644', '100755']);

/** Every file of `commit`, in git's order (by path), streamed. */
export async function* treeFiles(repo: Repository, commit: string): AsyncGenerator<TreeFile> {
  const child = gitProcess(['ls-tree', '-r', '-l', '-z', '--full-tree', commit], repo.dir);
  for await (const field of nulFields(child)) {
    // <mode> SP <type> SP <object> SP+ <size> TAB <path>
    const tab = field.indexOf('\t');
    const [mode, type, blob, size] = field.slice(0, tab).split(/ +/);
    if (type !== 'blob' || !FILE_MODES.has(mode as string)) continue;
    yield { path: field.slice(tab + 1), blob: blob as string, size: Number(size) };
  }
}

/** The files at `paths` of `commit` (a queue worker's job), with their blob ids and sizes. */
export async function* treeFilesAt(
  repo: Repository,
  commit: string,
  paths: readonly string[],
): AsyncGenerator<TreeFile> {
  const child = gitProcess(
    ['ls-tree', '-l', '-z', '--full-tree', commit, '--', ...paths.map((p) => `:(literal)${p}`)],
    repo.dir,
  );
  for await (const field of nulFields(child)) {
    const tab = field.indexOf('\t');
    const [mode, type, blob, size] = field.slice(0, tab).split(/ +/);
    if (type !== 'blob' || !FILE_MODES.has(mode as string)) continue;
    yield { path: field.slice(tab + 1), blob: blob as string, size: Number(size) };
  }
}
