/**
 * A folder source cut into jobs of file paths: the producer walks the files with `folderSource`,
 * as a local run does (the same include/exclude rules, order and ids), and never reads them.
 * Each job names its files relative to a folder under the root every worker mounts, with the
 * prefix that turns those paths back into the keys the local run gave (`placeFile`): workers
 * read each path under their own mount and give the same ids, `kis ingest` or queue alike.
 */
import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { type FolderSourceOptions, folderSource, loadFailure } from '@kis/node';
import { QueueUsageError } from '../errors.js';

export interface FilesSource {
  kind: 'files';
  /** The folder every worker mounts: jobs name files by their path under it. */
  root: string;
  /**
   * Files and folders to enqueue, relative to `root` (or absolute, under it). Default: the root
   * itself.
   */
  paths?: readonly string[] | undefined;
  /**
   * Document ids are file paths relative to this directory (`kis ingest --base-dir`). Default, as
   * a local run: a folder's files are `<folder name>/<path inside>`, a file given alone its name.
   */
  baseDir?: string | undefined;
  /** Globs a file must match one of (a glob without `/` matches the file name at any depth). */
  include?: readonly string[] | undefined;
  /** Globs that leave a file out. */
  exclude?: readonly string[] | undefined;
  /**
   * Only the files it accepts (by key, id and fingerprint): a sync's creates and updates, or the
   * files a producer's journal does not hold unchanged. Default: all.
   */
  select?: ((file: SelectableFile) => boolean) | undefined;
  /** Hears about each file found in a directory and left out (an unsupported type). */
  onIgnored?: ((ref: string, reason: string) => void) | undefined;
}

/** What `select` sees of a file: its key, its id, and its fingerprint as a local run records it. */
export interface SelectableFile {
  ref: string;
  id: string | undefined;
  fingerprint: string | undefined;
}

/** Files of a job: paths under `dir` (under the root), keyed `keyPrefix` + path. */
export interface FileBatch {
  kind: 'batch';
  dir: string;
  keyPrefix: string;
  paths: string[];
}

/** A path of the source that cannot become a document (unreadable, an unsupported file named). */
export interface FileFailure {
  kind: 'failed';
  ref: string;
  reason: string;
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

const toPosix = (path: string) => (sep === '/' ? path : path.split(sep).join('/'));

function outside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/**
 * Where a worker finds a file and how it keys it: its path relative to the root is `dir/path`,
 * its key `keyPrefix + path`, where `path` is the longest tail the two share. A file of a folder
 * under the root gives `dir` = the folder's parent and no prefix; the root itself given as a
 * folder gives `keyPrefix` = its name and `/`, since workers may mount it under another name.
 */
export function placeFile(
  root: string,
  file: string,
  key: string,
): { dir: string; keyPrefix: string; path: string } {
  if (outside(root, file)) {
    throw new QueueUsageError(
      `${file} is outside root ${root}: workers read files by their path under root`,
    );
  }
  const parts = toPosix(relative(root, file)).split('/');
  const keyParts = key.split('/');
  let shared = 0;
  while (
    shared < parts.length &&
    shared < keyParts.length &&
    parts[parts.length - 1 - shared] === keyParts[keyParts.length - 1 - shared]
  ) {
    shared++;
  }
  const path = parts.slice(parts.length - shared).join('/');
  return {
    dir: parts.slice(0, parts.length - shared).join('/'),
    keyPrefix: key.slice(0, key.length - path.length),
    path,
  };
}

/**
 * The source's files in batches of at most `batchSize` sharing one folder and prefix, and the
 * paths that cannot become documents. `items` are the options of the documents (their `source`
 * and `idPrefix`), so that `select` sees the ids that will be stored.
 */
export async function* fileBatches(
  source: FilesSource,
  batchSize: number,
  items: Pick<FolderSourceOptions, 'idPrefix' | 'source'> = {},
): AsyncGenerator<FileBatch | FileFailure> {
  const root = checkRoot(source.root, 'source.root');
  const roots = (source.paths ?? ['.']).map((p) => resolve(root, p));
  for (const path of roots) {
    if (outside(root, path)) {
      throw new QueueUsageError(
        `${path} is outside root ${root}: workers read files by their path under root`,
      );
    }
  }
  let walk: ReturnType<typeof folderSource>;
  try {
    walk = folderSource(roots, {
      ...items,
      baseDir: source.baseDir,
      include: source.include,
      exclude: source.exclude,
      onIgnored: source.onIgnored,
    });
  } catch (error) {
    // two folders of the same name would give their files the same ids
    throw new QueueUsageError((error as Error).message);
  }
  let batch: FileBatch | undefined;
  for (const item of walk) {
    if (item.path === undefined) {
      yield { kind: 'failed', ref: item.ref, reason: await loadFailure(item) };
      continue;
    }
    const file = { ref: item.ref, id: item.id, fingerprint: item.fingerprint };
    if (source.select && !source.select(file)) continue;
    const place = placeFile(root, item.path, item.ref);
    if (
      batch !== undefined &&
      (batch.dir !== place.dir ||
        batch.keyPrefix !== place.keyPrefix ||
        batch.paths.length >= batchSize)
    ) {
      yield batch;
      batch = undefined;
    }
    batch ??= { kind: 'batch', dir: place.dir, keyPrefix: place.keyPrefix, paths: [] };
    batch.paths.push(place.path);
  }
  if (batch !== undefined) yield batch;
}
