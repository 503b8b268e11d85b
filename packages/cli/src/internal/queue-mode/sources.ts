/**
 * The PATH arguments of `kis ingest --queue` and `kis sync --queue` as `@kis/queue` sources:
 * files and folders walked with a local run's ids under `--root`, JSONL files as byte ranges, and
 * JSONL on stdin (which no worker can read) as documents carried in the jobs.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { fsReason, jsonlSource, loadFailure, type SourceItem } from '@kis/node';
import type { QueueSource, SelectableFile } from '@kis/queue';
import { checkSource } from '../enums.js';
import { UsageError } from '../errors.js';
import { type Inputs, jsonlName, readInputs, resolveBaseDir } from '../inputs.js';
import type { Io } from '../output.js';
import type { RunFlags } from '../run-options.js';
import type { QueueFlags } from './options.js';

/** A producer's PATHs, read as a local run reads them, and the `--root` that holds them all. */
export interface ProducerPaths {
  inputs: Inputs;
  root: string;
  /** `--source`, checked. */
  source: string | undefined;
  /** `--base-dir`, resolved. */
  baseDir: string | undefined;
}

/** `kis ingest --queue` and `kis sync --queue`: the PATHs, refused when one is outside `--root`. */
export async function producerPaths(
  io: Io,
  paths: readonly string[],
  options: Pick<RunFlags, 'source' | 'baseDir'> & Pick<QueueFlags, 'root'>,
): Promise<ProducerPaths> {
  const source = options.source === undefined ? undefined : checkSource('--source', options.source);
  const baseDir =
    options.baseDir === undefined ? undefined : await resolveBaseDir(io.cwd, options.baseDir);
  const inputs = await readInputs([...paths], io);
  const root = await resolveRoot(io.cwd, options.root);
  checkUnderRoot(root, [...inputs.walk, ...inputs.jsonl]);
  return { inputs, root, source, baseDir };
}

/** `--root`, checked: the folder every worker mounts. */
export async function resolveRoot(cwd: string, root: string | undefined): Promise<string> {
  const dir = resolve(cwd, root ?? '.');
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error('not a directory');
  } catch (error) {
    const why =
      (error as Error).message === 'not a directory' ? 'not a directory' : fsReason(error);
    throw new UsageError(`--root: "${root ?? '.'}": ${why} (expected the folder workers mount)`);
  }
  return dir;
}

/** Refuses a PATH workers could not find under `--root`. */
export function checkUnderRoot(root: string, paths: readonly string[]): void {
  for (const path of paths) {
    const rel = relative(root, path);
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
      throw new UsageError(
        `--root: ${path} is outside ${root}; workers read paths under --root (give a --root that holds every PATH)`,
      );
    }
  }
}

/** What the documents are built with: the options local runs pass to their sources. */
export interface QueuedSourceOptions {
  root: string;
  /** `--base-dir`, resolved (ids relative to it), else a local run's default ids. */
  baseDir: string | undefined;
  include: readonly string[];
  exclude: readonly string[];
  /** `--source`, and `--namespace` (sync), for documents read here from stdin. */
  source: string | undefined;
  idPrefix: string | undefined;
  onIgnored: (ref: string, reason: string) => void;
  /** Only these files (a sync's creates and updates, or what the journal does not hold). */
  select?: ((file: SelectableFile) => boolean) | undefined;
}

/** The folders, files and JSONL files of the PATHs as queue sources, in the order given. */
export function pathSources(inputs: Inputs, options: QueuedSourceOptions): QueueSource[] {
  checkUnderRoot(options.root, [...inputs.walk, ...inputs.jsonl]);
  const sources: QueueSource[] = [];
  if (inputs.walk.length > 0) {
    sources.push({
      kind: 'files',
      root: options.root,
      paths: inputs.walk,
      baseDir: options.baseDir,
      include: options.include,
      exclude: options.exclude,
      onIgnored: options.onIgnored,
      select: options.select,
    });
  }
  for (const file of inputs.jsonl) {
    // named as a local run names them
    const name = jsonlName(options.baseDir, file);
    sources.push({ kind: 'jsonl', file, root: options.root, name });
  }
  return sources;
}

/**
 * JSONL on stdin as documents carried in jobs (no worker can read this process's stdin): lines
 * that are not documents fail here, with their line and reason, and are not enqueued.
 */
export async function* stdinDocuments(
  stdin: Readable,
  options: Pick<QueuedSourceOptions, 'source' | 'idPrefix'>,
  onFailed: (ref: string, reason: string) => void,
): AsyncGenerator<SourceItem> {
  for await (const item of jsonlSource(stdin, { ...options, name: 'stdin' })) {
    if (item.load !== undefined) onFailed(item.ref, await loadFailure(item));
    else yield item;
  }
}
