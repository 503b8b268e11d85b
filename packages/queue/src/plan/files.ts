/**
 * A folder source cut into jobs of file paths relative to `root`: the producer walks the files
 * (with the same include/exclude rules and order as a local run) and never reads them; workers
 * read each path under their own mount of the same root.
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { folderSource } from '@kis/node';
import { QueueUsageError } from '../errors.js';

export interface FilesSource {
  kind: 'files';
  /**
   * The folder every worker mounts: jobs name files by their path relative to it, and document
   * ids are those paths (as with `--base-dir` in a local run).
   */
  root: string;
  /** Files and folders to enqueue, relative to `root` (or absolute, under it). Default: all of it. */
  paths?: readonly string[] | undefined;
  /** Globs a file must match one of (a glob without `/` matches the file name at any depth). */
  include?: readonly string[] | undefined;
  /** Globs that leave a file out. */
  exclude?: readonly string[] | undefined;
  /** Hears about each file found in a directory and left out (an unsupported type). */
  onIgnored?: ((ref: string, reason: string) => void) | undefined;
}

/** Checks that `root` is a directory; its absolute path. */
export function checkRoot(root: string, field = 'root'): string {
  if (typeof root !== 'string' || root === '') {
    throw new QueueUsageError(`${field} must name the folder the file paths are relative to`);
  }
  const abs = resolve(root);
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    throw new QueueUsageError(`${field} ${abs}: no such directory`);
  }
  if (!isDir) throw new QueueUsageError(`${field} ${abs}: not a directory`);
  return abs;
}

/** The files' paths relative to root, in batches of `batchSize`. */
export function* fileBatches(source: FilesSource, batchSize: number): Generator<string[]> {
  const root = checkRoot(source.root);
  const walk = folderSource(source.paths ?? ['.'], {
    baseDir: root,
    include: source.include,
    exclude: source.exclude,
    onIgnored: source.onIgnored,
  });
  let batch: string[] = [];
  for (const item of walk) {
    // keys are relative to root; one outside it is absolute (and no worker could find it)
    if (isAbsolute(item.ref)) {
      throw new QueueUsageError(
        `${item.ref} is outside root ${root}: workers read files by their path relative to root`,
      );
    }
    batch.push(item.ref);
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
