import { type Dirent, readdirSync, type Stats, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fsReason } from './fs-reason.js';

/** A file found on disk, to become one document. */
export interface FoundFile {
  /** Absolute path. */
  path: string;
  /**
   * The file's path relative to the base directory (`baseDir`),
   * with `/` separators; its absolute path when it lies outside the base directory. The document
   * id is derived from it, and it is how the file is named in messages.
   */
  key: string;
  /** Named among the roots (rather than found in a directory). */
  explicit: boolean;
}

export type WalkEvent =
  | { type: 'file'; file: FoundFile }
  /** A hidden entry (its name starts with `.`) found in a directory: left out, not walked. */
  | { type: 'hidden'; ref: string; directory: boolean }
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
  if (rel === '' || isOutside(rel)) return toPosix(absPath);
  return toPosix(rel);
}

/**
 * The directory a path's ids are relative to when no base directory is given: its parent, so a
 * folder's files are `<folder name>/<path inside>` and a file is its name, wherever the command
 * runs (the file-system root, which has no name, is its own base).
 */
export function idBase(absPath: string): string {
  return dirname(absPath);
}

/** Whether a path `relative` gave leads out of its base directory. */
function isOutside(rel: string): boolean {
  return rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel);
}

function isInside(dir: string, path: string): boolean {
  return path === dir || path.startsWith(withSep(dir));
}

/**
 * Walks files and directories lazily (one directory listing in memory per level), in a stable
 * order (names sorted). Hidden entries (names starting with `.`) inside directories are skipped,
 * each said once (a hidden directory is not walked) unless the filter leaves it out or a root
 * lies in it; files and directories named as roots are always taken. A path given twice, or a
 * directory inside another one already walked, yields its files only once. Symbolic links to
 * files are followed; links to directories are not (no loops, no file reached twice).
 *
 * Synchronous: a directory listing or a stat takes microseconds, where waiting for each one in
 * turn (and passing each file through promises) costs a walk of many files most of its time
 * (bench/sync.mjs). A consumer with other work in flight gives it turns as it goes (`sync`
 * does).
 */
export function* walkFiles(
  roots: readonly string[],
  options: { baseDir?: string | undefined; filter: FileFilter },
): Generator<WalkEvent> {
  const accept = createFilter(options.filter);
  const filtered = options.filter.include.length > 0 || options.filter.exclude.length > 0;
  const given = options.baseDir === undefined ? undefined : resolve(options.baseDir);
  /** Keys are relative to `baseDir`: the one given, else each root's parent (idBase). */
  let baseDir = given ?? '';
  const walkedDirs: string[] = [];
  const explicitFiles = new Set<string>();
  // A path was covered by an earlier walk when it lies in a walked directory and no part of it
  // below that directory is hidden (hidden entries are skipped by walks).
  const covered = (path: string) =>
    walkedDirs.length > 0 &&
    walkedDirs.some(
      (dir) =>
        isInside(dir, path) &&
        !relative(dir, path)
          .split(sep)
          .some((part) => part.startsWith('.')),
    );
  const seenBefore = (path: string) => explicitFiles.has(path) || covered(path);
  const absRoots = roots.map((root) => resolve(root));
  /** A hidden entry is said unless a root is (or lies in) it: that root is walked on its own. */
  const holdsRoot = (path: string) => absRoots.some((root) => isInside(path, root));

  /** What a file's key is in `dir`, before its name (see fileKey). */
  const keyPrefixOf = (dir: string): string => {
    const rel = relative(baseDir, dir);
    if (rel === '') return ''; // the base directory: its files' keys are their names
    if (isOutside(rel)) return toPosix(withSep(dir));
    return `${toPosix(rel)}/`;
  };

  // A directory walk is depth-first in name order, kept as a stack of directory listings (one
  // per level) rather than a generator per directory, so that every file passes through this
  // generator only. Paths and keys are joined by hand, one `relative` per directory rather than
  // two per file: readdir names hold no separator, and the directories are absolute and
  // normalised.
  interface Level {
    /** The directory with a trailing separator. */
    base: string;
    /** Its files' keys are this prefix and their names. */
    keyPrefix: string;
    /** Its files' paths relative to the walked root (`/`-separated): this prefix and names. */
    rootPrefix: string;
    entries: Dirent[];
    next: number;
  }
  const stack: Level[] = [];
  /** Lists a directory onto the stack; the error event when it cannot be read. */
  const enter = (root: string, dir: string): WalkEvent | undefined => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      return { type: 'error', ref: fileKey(baseDir, dir), reason: fsReason(error) };
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const fromRoot = toPosix(relative(root, dir));
    stack.push({
      base: withSep(dir),
      keyPrefix: keyPrefixOf(dir),
      rootPrefix: fromRoot === '' ? '' : `${fromRoot}/`,
      entries,
      next: 0,
    });
    return undefined;
  };

  for (const root of roots) {
    const abs = resolve(root);
    baseDir = given ?? idBase(abs);
    let info: Stats;
    try {
      info = statSync(abs);
    } catch (error) {
      yield { type: 'error', ref: root, reason: fsReason(error) };
      continue;
    }
    if (!info.isDirectory()) {
      if (seenBefore(abs)) continue;
      explicitFiles.add(abs);
      const key = fileKey(baseDir, abs);
      if (accept([key, toPosix(relative(resolve(abs, '..'), abs))])) {
        yield { type: 'file', file: { path: abs, key, explicit: true } };
      }
      continue;
    }
    if (seenBefore(abs)) continue;
    const failed = enter(abs, abs);
    if (failed) yield failed;
    while (stack.length > 0) {
      const level = stack[stack.length - 1] as Level;
      const entry = level.entries[level.next++];
      if (entry === undefined) {
        stack.pop();
        continue;
      }
      const name = entry.name;
      const path = level.base + name;
      if (name.startsWith('.')) {
        const key = level.keyPrefix + name;
        if ((!filtered || accept([level.rootPrefix + name, key])) && !holdsRoot(path)) {
          yield { type: 'hidden', ref: key, directory: entry.isDirectory() };
        }
        continue;
      }
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          isFile = statSync(path).isFile();
        } catch (error) {
          yield {
            type: 'error',
            ref: level.keyPrefix + name,
            reason: `broken link: ${fsReason(error)}`,
          };
          continue;
        }
      } else if (entry.isDirectory()) {
        if (!covered(path)) {
          const unreadable = enter(abs, path);
          if (unreadable) yield unreadable;
        }
        continue;
      }
      if (!isFile || seenBefore(path)) continue;
      const key = level.keyPrefix + name;
      if (filtered && !accept([level.rootPrefix + name, key])) continue;
      yield { type: 'file', file: { path, key, explicit: false } };
    }
    // Walked dirs are recorded after the walk, so that while walking this one, files under
    // earlier roots inside it are recognised as already seen.
    walkedDirs.push(abs);
  }
}

function withSep(dir: string): string {
  return dir.endsWith(sep) ? dir : dir + sep;
}
