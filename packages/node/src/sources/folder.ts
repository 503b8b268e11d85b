/**
 * A folder as a source of documents for `ingestMany` and `sync`: files walked lazily and in a
 * stable order, each an item whose id is known before it is read. By default a folder's files
 * are identified as `<folder name>/<path inside>` and a file given alone by its name, the same
 * wherever the program runs (README of @kis/node, "Document ids"); `baseDir` identifies them by
 * their path relative to that directory instead.
 */
import { statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { normalizeDocumentId } from '@kis/rules';
import { failing, fileEntry, type ItemOptions, type SourceItem } from './items.js';
import { fileKey, idBase, walkFiles } from './walk.js';

export interface FolderSourceOptions extends ItemOptions {
  /**
   * Document ids are file paths relative to this directory. Default: none, each folder's files
   * are `<folder name>/<path inside>` (a file given alone: its name), wherever the program runs.
   */
  baseDir?: string | undefined;
  /**
   * Put before each file's key (its `ref`, its id and its metadata's `relative_path`): a program
   * that reads a folder under another name than the one its ids came from (a queue worker whose
   * root is the folder itself) gives the ids a local run gives. Default: none.
   */
  keyPrefix?: string | undefined;
  /** Globs a file must match one of (a glob without `/` matches the file name at any depth). */
  include?: readonly string[] | undefined;
  /** Globs that leave a file out. */
  exclude?: readonly string[] | undefined;
  /**
   * Hears about each entry found in a directory and left out, with why: an unsupported type
   * (`unsupported file type .exe`), or a hidden file or directory ({@link HIDDEN_FILE},
   * {@link HIDDEN_DIRECTORY}).
   */
  onIgnored?: ((ref: string, reason: string) => void) | undefined;
}

/**
 * The files under `paths`, as items (iterate it as many times as needed: each walk reads the
 * folder again). Synchronous on purpose: `sync` reads such a source without a promise per
 * item (see `walkFiles`).
 */
export interface FolderSource extends Iterable<SourceItem> {
  /** The directory ids are relative to (absolute), when one was given. */
  readonly baseDir: string | undefined;
  /**
   * Whether a stored document id belongs to this source: under one of its directories, or one of
   * its files (`sync`'s `owns`). Give `idPrefix` to own a namespace instead.
   */
  owns(documentId: string): boolean;
  /** True when a path is `baseDir` itself (or holds it): the source then owns every id. */
  readonly ownsEverything: boolean;
  /** How many items a walk yields (nothing is read): a progress total. */
  count(): number;
}

/** Why a hidden file found in a directory is left out (`onIgnored`). */
export const HIDDEN_FILE = 'hidden file (its name starts with ".")';
/** Why a hidden directory found in a directory is left out, unwalked (`onIgnored`). */
export const HIDDEN_DIRECTORY = 'hidden directory (its name starts with "."), not walked';

/**
 * Two paths of the same name given without a base directory: their files would get the same
 * ids (`a/docs` and `b/docs` both give `docs/…`).
 */
export class SameNameError extends TypeError {
  /** The two paths (absolute), and the name they share. */
  readonly paths: readonly [string, string];
  readonly sharedName: string;

  constructor(paths: readonly [string, string], sharedName: string) {
    super(
      `"${paths[0]}" and "${paths[1]}" would give their files the same document ids (both are named "${sharedName}"): ingest them one at a time, or give a base directory their ids are relative to`,
    );
    this.name = 'SameNameError';
    this.paths = paths;
    this.sharedName = sharedName;
  }
}

export function folderSource(
  paths: readonly string[],
  options: FolderSourceOptions = {},
): FolderSource {
  const baseDir = options.baseDir === undefined ? undefined : resolve(options.baseDir);
  const roots = paths.map((p) => resolve(baseDir ?? '.', p));
  if (baseDir === undefined) refuseSameNames(roots);
  const filter = { include: options.include ?? [], exclude: options.exclude ?? [] };
  const walk = () => walkFiles(roots, { baseDir, filter });
  const keyPrefix = options.keyPrefix ?? '';
  const ownership = ownershipOf(roots, baseDir, options.idPrefix, keyPrefix);
  return {
    baseDir,
    owns: ownership.owns,
    ownsEverything: ownership.everything,
    count() {
      let total = 0;
      for (const _ of walk()) total++;
      return total;
    },
    *[Symbol.iterator]() {
      for (const event of walk()) {
        if (event.type === 'error') {
          yield failing(keyPrefix + event.ref, event.reason);
          continue;
        }
        if (event.type === 'hidden') {
          options.onIgnored?.(
            keyPrefix + event.ref,
            event.directory ? HIDDEN_DIRECTORY : HIDDEN_FILE,
          );
          continue;
        }
        const file =
          keyPrefix === '' ? event.file : { ...event.file, key: keyPrefix + event.file.key };
        const entry = fileEntry(file, options);
        if (entry.kind === 'item') yield entry.item;
        else options.onIgnored?.(event.file.key, entry.reason);
      }
    },
  };
}

/**
 * Without a base directory two paths with the same name (`a/docs` and `b/docs`) would give their
 * files the same ids: refused ({@link SameNameError}), naming both.
 */
function refuseSameNames(roots: readonly string[]): void {
  const byName = new Map<string, string>();
  for (const root of roots) {
    const name = fileKey(idBase(root), root);
    const other = byName.get(name);
    if (other !== undefined && other !== root) {
      throw new SameNameError([other, root], name);
    }
    byName.set(name, root);
  }
}

/** The ids a folder source owns: its namespace if it has one, else its directories and files. */
function ownershipOf(
  roots: readonly string[],
  given: string | undefined,
  idPrefix: string | undefined,
  keyPrefix: string,
): { owns: (id: string) => boolean; everything: boolean } {
  if (idPrefix !== undefined) {
    const prefix = normalizeDocumentId(idPrefix);
    return { owns: (id) => id.startsWith(prefix), everything: prefix === '' };
  }
  const prefixes: string[] = [];
  const exact = new Set<string>();
  let everything = false;
  for (const root of roots) {
    const baseDir = given ?? idBase(root);
    const key = keyPrefix + fileKey(baseDir, root);
    if (isDirectory(root)) {
      // a directory holding the base directory gets an absolute key, owning none of its ids
      if (root === baseDir || baseDir.startsWith(`${root}${sep}`)) everything = true;
      prefixes.push(normalizeDocumentId(`${key}/`));
    } else exact.add(normalizeDocumentId(key));
  }
  if (everything) return { owns: () => true, everything };
  // asked for every id of the pair's listing: a loop, not a closure per call
  const owns = (id: string): boolean => {
    if (exact.has(id)) return true;
    for (const prefix of prefixes) if (id.startsWith(prefix)) return true;
    return false;
  };
  return { owns, everything };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
