/**
 * `kis ingest` and `kis sync` PATH arguments → the client's sources: files and folders walked
 * lazily, JSONL files and stdin read line by line.
 */
import { stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import {
  countJsonlLines,
  type FolderSource,
  type FolderSourceOptions,
  fileKey,
  folderSource,
  fsReason,
  jsonlSource,
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

/** The directory document ids are computed from: `--base-dir`, checked, or the current one. */
export async function resolveBaseDir(cwd: string, baseDir: string | undefined): Promise<string> {
  const dir = resolve(cwd, baseDir ?? '.');
  if (baseDir !== undefined) {
    try {
      if (!(await stat(dir)).isDirectory()) throw new Error('not a directory');
    } catch {
      throw new UsageError(`--base-dir: "${baseDir}" is not a directory`);
    }
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
}

/** The client's folder and JSONL sources over the PATH arguments. */
export function inputSources(
  inputs: Inputs,
  stdin: Readable,
  options: FolderSourceOptions & { baseDir: string },
): InputSources {
  const folder = inputs.walk.length > 0 ? folderSource(inputs.walk, options) : undefined;
  const filesOnly = inputs.jsonl.length === 0 && !inputs.stdin;
  return {
    folder,
    items: () =>
      filesOnly
        ? (folder ?? [])
        : (async function* () {
            if (folder) yield* folder;
            for (const path of inputs.jsonl) {
              yield* jsonlSource(path, { ...options, name: fileKey(options.baseDir, path) });
            }
            if (inputs.stdin) yield* jsonlSource(stdin, { ...options, name: 'stdin' });
          })(),
    async count() {
      let total = folder?.count() ?? 0;
      for (const path of inputs.jsonl) total += await countJsonlLines(path);
      return total;
    },
  };
}
