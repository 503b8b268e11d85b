/** `kis ingest` PATH arguments → input units: files (walked lazily) and JSONL lines. */
import { stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { UsageError } from '../../errors.js';
import { countJsonlLines, openJsonlFile, readJsonl } from '../../jsonl.js';
import type { Io } from '../../output.js';
import { fsReason } from '../../structured.js';
import { type FileFilter, type FoundFile, fileKey, walkFiles } from '../../walk.js';

/** The PATH arguments, sorted by how they are read. */
export interface Inputs {
  /** Files and directories to walk (absolute). */
  walk: string[];
  /** JSONL files (absolute). */
  jsonl: string[];
  /** `-`: JSONL on stdin. */
  stdin: boolean;
}

/** One unit of input, before it becomes a document. */
export type Unit =
  | { kind: 'file'; file: FoundFile }
  | { kind: 'line'; ref: string; value: unknown }
  | { kind: 'error'; ref: string; reason: string };

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

/** The input units: files (walked lazily), then JSONL lines of files and of stdin. */
export async function* units(
  inputs: Inputs,
  stdin: Readable,
  baseDir: string,
  filter: FileFilter,
): AsyncGenerator<Unit> {
  yield* fileUnits(inputs, baseDir, filter);
  for (const path of inputs.jsonl) {
    yield* jsonlUnits(openJsonlFile(path), fileKey(baseDir, path));
  }
  if (inputs.stdin) yield* jsonlUnits(stdin, 'stdin');
}

/** The files' units alone, walked synchronously (see `walkFiles`). */
export function* fileUnits(inputs: Inputs, baseDir: string, filter: FileFilter): Generator<Unit> {
  if (inputs.walk.length === 0) return;
  for (const event of walkFiles(inputs.walk, { baseDir, filter })) {
    if (event.type === 'file') yield { kind: 'file', file: event.file };
    else yield { kind: 'error', ref: event.ref, reason: event.reason };
  }
}

async function* jsonlUnits(stream: Readable, name: string): AsyncGenerator<Unit> {
  try {
    for await (const line of readJsonl(stream)) {
      const ref = `${name}:${line.line}`;
      if ('error' in line) yield { kind: 'error', ref, reason: line.error };
      else yield { kind: 'line', ref, value: line.value };
    }
  } catch (error) {
    yield { kind: 'error', ref: name, reason: `cannot read: ${fsReason(error)}` };
  }
}

/**
 * Counts what {@link units} will produce, for the progress total (no extraction); stdin is not
 * counted (it can be read once only).
 */
export async function countUnits(
  inputs: Inputs,
  baseDir: string,
  filter: FileFilter,
): Promise<number> {
  let total = 0;
  if (inputs.walk.length > 0) {
    for (const _ of walkFiles(inputs.walk, { baseDir, filter })) total++;
  }
  for (const path of inputs.jsonl) total += await countJsonlLines(path);
  return total;
}
