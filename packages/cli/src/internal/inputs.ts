/**
 * `kis ingest` and `kis sync` PATH arguments → the client's sources: files and folders walked
 * lazily, JSONL files and stdin read line by line.
 */
import { stat } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import {
  countJsonlLines,
  type FolderSource,
  type FolderSourceOptions,
  fileKey,
  folderSource,
  fsReason,
  jsonlSource,
  kindOf,
  SameNameError,
  type SourceItem,
} from '@kis/node';
import { UsageError } from './errors.js';
import type { Io } from './output.js';

/** The PATH arguments, sorted by how they are read. */
export interface Inputs {
  /** Files and directories to walk (absolute). */
  walk: string[];
  /** JSONL files (absolute). */
  jsonl: string[];
  /** `-`: JSONL on stdin. */
  stdin: boolean;
}

const JSONL_EXTENSIONS = new Set(['.jsonl', '.ndjson']);

/**
 * Checks the PATH arguments before anything runs: they must exist, `-` at most once and not
 * from a terminal.
 */
export async function readInputs(paths: readonly string[], io: Io): Promise<Inputs> {
  const inputs: Inputs = { walk: [], jsonl: [], stdin: false };
  for (const path of paths) {
    if (path === '-') {
      if (inputs.stdin) throw new UsageError('ingest: "-" (JSONL on stdin) can be given only once');
      inputs.stdin = true;
      continue;
    }
    const absolute = resolve(io.cwd, path);
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(absolute);
    } catch (error) {
      throw new UsageError(
        `ingest: PATH "${path}": ${fsReason(error)} (expected a file, a directory, a .jsonl file or - for stdin)`,
      );
    }
    if (info.isFile() && JSONL_EXTENSIONS.has(extname(path).toLowerCase()))
      inputs.jsonl.push(absolute);
    else inputs.walk.push(absolute);
  }
  if (inputs.stdin && io.stdin.isTTY === true) {
    throw new UsageError(
      'ingest: "-" reads JSONL from stdin, but stdin is a terminal; pipe a file in',
    );
  }
  return inputs;
}

/**
 * The directory document ids are relative to: `--base-dir`, checked and absolute; undefined
 * without it, when a folder's files are `<folder name>/<path inside>` and a file alone its name,
 * wherever the command runs (@kis/node's `folderSource`).
 */
export async function resolveBaseDir(
  cwd: string,
  baseDir: string | undefined,
): Promise<string | undefined> {
  if (baseDir === undefined) return undefined;
  const dir = resolve(cwd, baseDir);
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new UsageError(`--base-dir: "${baseDir}" is not a directory`);
  }
  return dir;
}

/** What the PATH arguments yield: the folder source of the files, and every item in order. */
export interface InputSources {
  /** The files and directories among the PATHs (undefined when there are none). */
  folder: FolderSource | undefined;
  /**
   * Every item: files first, then the lines of JSONL files, then stdin's. Files alone come
   * synchronously (`kis.sync` reads such a source without a promise per item).
   */
  items(): Iterable<SourceItem> | AsyncIterable<SourceItem>;
  /** How many items there are (stdin is not counted: it can be read once only). */
  count(): Promise<number>;
  /**
   * What an item is, by its ref: `jsonl` for a line of a JSONL input, else the rule book's kind
   * of the file (`FILE_KINDS`: `markdown`, `pdf`, …), or `other` (a path that cannot be read, a
   * file of no kind).
   */
  kindOf(ref: string): string;
}

/**
 * The client's folder and JSONL sources over the PATH arguments. JSONL lines are named
 * `<name>:<line>`, the name being the file's path relative to `--base-dir`, else its name.
 */
export function inputSources(
  inputs: Inputs,
  stdin: Readable,
  options: FolderSourceOptions,
): InputSources {
  const folder = inputs.walk.length > 0 ? folderOf(inputs.walk, options) : undefined;
  const filesOnly = inputs.jsonl.length === 0 && !inputs.stdin;
  const { baseDir } = options;
  const jsonlNames = inputs.jsonl.map((path) => jsonlName(baseDir, path));
  if (inputs.stdin) jsonlNames.push('stdin');
  const lineRef = /^(.*):\d+$/;
  return {
    folder,
    items: () =>
      filesOnly
        ? (folder ?? [])
        : (async function* () {
            if (folder) yield* folder;
            for (const [i, path] of inputs.jsonl.entries()) {
              yield* jsonlSource(path, { ...options, name: jsonlNames[i] });
            }
            if (inputs.stdin) yield* jsonlSource(stdin, { ...options, name: 'stdin' });
          })(),
    async count() {
      let total = folder?.count() ?? 0;
      for (const path of inputs.jsonl) total += await countJsonlLines(path);
      return total;
    },
    kindOf(ref) {
      const line = lineRef.exec(ref);
      if (line && jsonlNames.includes(line[1] as string)) return 'jsonl';
      return kindOf(ref)?.kind ?? 'other';
    },
  };
}

/** What a JSONL file's lines are called in results (`<name>:<line>`): its name, else its path under `--base-dir`. */
export function jsonlName(baseDir: string | undefined, path: string): string {
  return baseDir === undefined ? basename(path) : fileKey(baseDir, path);
}

/** The folder source; two paths of the same name without `--base-dir`: a usage error. */
function folderOf(paths: readonly string[], options: FolderSourceOptions): FolderSource {
  try {
    return folderSource(paths, options);
  } catch (error) {
    if (!(error instanceof SameNameError)) throw error;
    const [a, b] = error.paths;
    throw new UsageError(
      `PATH: "${a}" and "${b}" are both named "${error.sharedName}", so their files would get the same document ids; give them one at a time, or --base-dir DIR to make ids relative to DIR`,
    );
  }
}
