import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fsReason } from './structured.js';

/** A file found on disk, to become one document. */
export interface FoundFile {
  /** Absolute path. */
  path: string;
  /**
   * The file's path relative to the base directory (the current directory unless `--base-dir`),
   * with `/` separators; its absolute path when it lies outside the base directory. The document
   * id is derived from it, and it is how the file is named in messages.
   */
  key: string;
  /** Named on the command line (rather than found in a directory). */
  explicit: boolean;
}

export type WalkEvent =
  | { type: 'file'; file: FoundFile }
  /** A path that could not be read (the walk goes on). */
  | { type: 'error'; ref: string; reason: string };

export interface FileFilter {
  /** When any are given, a file must match one of them. */
  include: readonly string[];
  /** A file matching any of them is left out. */
  exclude: readonly string[];
}

/**
 * Builds the include/exclude test. A glob is matched against the file's path relative to the
 * PATH argument it was found under and against its path relative to the base directory; a glob
 * without `/` matches the file name at any depth.
 */
export function createFilter(filter: FileFilter): (paths: readonly string[]) => boolean {
  const include = filter.include.length > 0 ? globMatcher(filter.include) : undefined;
  const exclude = filter.exclude.length > 0 ? globMatcher(filter.exclude) : undefined;
  return (paths) =>
    (include === undefined || paths.some((p) => include(p))) &&
    (exclude === undefined || !paths.some((p) => exclude(p)));
}

/** A matcher: globs with `/` match the whole relative path, the others the file name. */
function globMatcher(globs: readonly string[]): (path: string) => boolean {
  // loaded when globs are given only (start-up time); picomatch is CommonJS
  const picomatch = createRequire(import.meta.url)('picomatch') as typeof import('picomatch');
  const withSlash = globs.filter((g) => g.includes('/'));
  const nameOnly = globs.filter((g) => !g.includes('/'));
  const full = withSlash.length > 0 ? picomatch(withSlash, { dot: true }) : undefined;
  const name = nameOnly.length > 0 ? picomatch(nameOnly, { dot: true }) : undefined;
  return (path) => {
    if (full?.(path)) return true;
    if (name === undefined) return false;
    const slash = path.lastIndexOf('/');
    return name(slash === -1 ? path : path.slice(slash + 1));
  };
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** The stable key of a file: relative to the base directory, or absolute when outside it. */
export function fileKey(baseDir: string, absPath: string): string {
  const rel = relative(baseDir, absPath);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) {
    return toPosix(absPath);
  }
  return toPosix(rel);
}

function isInside(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/**
 * Walks files and directories lazily (one directory listing in memory per level), in a stable
 * order (names sorted). Hidden entries (names starting with `.`) inside directories are skipped;
 * files and directories named on the command line are always taken. A path given twice, or a
 * directory inside another one already walked, yields its files only once. Symbolic links to
 * files are followed; links to directories are not (no loops, no file reached twice).
 */
export async function* walkFiles(
  roots: readonly string[],
  options: { baseDir: string; filter: FileFilter },
): AsyncGenerator<WalkEvent> {
  const accept = createFilter(options.filter);
  const baseDir = resolve(options.baseDir);
  const walkedDirs: string[] = [];
  const explicitFiles = new Set<string>();
  // A path was covered by an earlier walk when it lies in a walked directory and no part of it
  // below that directory is hidden (hidden entries are skipped by walks).
  const covered = (path: string) =>
    walkedDirs.some(
      (dir) =>
        isInside(dir, path) &&
        !relative(dir, path)
          .split(sep)
          .some((part) => part.startsWith('.')),
    );
  const seenBefore = (path: string) => explicitFiles.has(path) || covered(path);

  for (const root of roots) {
    const abs = resolve(root);
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(abs);
    } catch (error) {
      yield { type: 'error', ref: root, reason: fsReason(error) };
      continue;
    }
    if (info.isDirectory()) {
      if (seenBefore(abs)) continue;
      // Walked dirs are recorded after the walk, so that while walking this one, files under
      // earlier roots inside it are recognised as already seen.
      yield* walkDir(abs, abs);
      walkedDirs.push(abs);
    } else if (!seenBefore(abs)) {
      explicitFiles.add(abs);
      const key = fileKey(baseDir, abs);
      if (accept([key, toPosix(relative(resolve(abs, '..'), abs))])) {
        yield { type: 'file', file: { path: abs, key, explicit: true } };
      }
    }
  }

  async function* walkDir(root: string, dir: string): AsyncGenerator<WalkEvent> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      yield { type: 'error', ref: fileKey(baseDir, dir), reason: fsReason(error) };
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          isFile = (await stat(path)).isFile();
        } catch (error) {
          yield {
            type: 'error',
            ref: fileKey(baseDir, path),
            reason: `broken link: ${fsReason(error)}`,
          };
          continue;
        }
      } else if (entry.isDirectory()) {
        if (!covered(path)) yield* walkDir(root, path);
        continue;
      }
      if (!isFile || seenBefore(path)) continue;
      const key = fileKey(baseDir, path);
      if (accept([toPosix(relative(root, path)), key])) {
        yield { type: 'file', file: { path, key, explicit: false } };
      }
    }
  }
}
