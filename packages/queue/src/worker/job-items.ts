/**
 * A job's documents as items for the bulk engine, built on the worker from what the job names:
 * files under the worker's root (read and extracted when the engine loads them, as in a local
 * run), lines of a byte range of a JSONL file, or the documents the job carries. Items keep the
 * names and ids a local run gives them (`folderSource`, `jsonlSource` of `@kis/node`).
 */
import { createReadStream, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { IngestItem } from '@kis/client';
import { folderSource, fsReason, gitSource, jsonlSource, loadFailure, sqlSource } from '@kis/node';
import type { DocumentsJob, FilesJob, GitJob, JobData, JsonlJob, SqlJob } from '../job-data.js';

/** One document of a job: its ordinal in the run and the item the engine sends. */
export interface JobItem {
  ordinal: number;
  item: IngestItem & { ref: string };
}

/** An item whose load fails with `reason` (the engine reports it failed, like any document). */
function failing(ref: string, reason: string): JobItem['item'] {
  return {
    ref,
    load: () => {
      throw new Error(reason);
    },
  };
}

function escapes(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel);
}

/** Where a worker reads a job's relative paths; undefined when it was started without one. */
export type WorkerRoot = string | undefined;

/** What a worker reads jobs with: its root, and its SQL connections by name. */
export interface WorkerPlace {
  root: WorkerRoot;
  connections: Readonly<Record<string, string>>;
}

const NO_ROOT =
  'this worker has no root: start it with the folder the producer enqueued paths relative to';

/**
 * The files of a job: each path under the job's folder (`dir`, under the root), keyed as the
 * producer's local run keyed it (`keyPrefix` and the path), read when the engine loads it.
 */
function* fileItems(job: FilesJob, root: WorkerRoot): Generator<JobItem> {
  const keyPrefix = job.keyPrefix ?? '';
  const dir = job.dir ? resolve(root ?? '.', job.dir) : root;
  for (let i = 0; i < job.paths.length; i++) {
    const path = job.paths[i] as string;
    const ordinal = job.start + i;
    const key = keyPrefix + path;
    const shown = job.dir ? `${job.dir}/${path}` : path;
    if (root === undefined || dir === undefined) {
      yield { ordinal, item: failing(key, NO_ROOT) };
      continue;
    }
    const abs = resolve(dir, path);
    if (isAbsolute(path) || escapes(root, dir) || escapes(root, abs)) {
      yield { ordinal, item: failing(key, `path ${shown} is not inside root ${root}`) };
      continue;
    }
    try {
      // a job names files; a directory here was one the producer could not walk
      if (!statSync(abs).isFile()) {
        yield {
          ordinal,
          item: failing(key, `cannot read ${shown} under root ${root}: not a file`),
        };
        continue;
      }
    } catch (error) {
      yield {
        ordinal,
        item: failing(key, `cannot read ${shown} under root ${root}: ${fsReason(error)}`),
      };
      continue;
    }
    const [item] = folderSource([path], { baseDir: dir, keyPrefix, ...job.items });
    yield {
      ordinal,
      item: item ?? failing(key, `cannot read ${shown} under root ${root}: not a file`),
    };
  }
}

/** The JSONL file of a job on this worker, or the reason it cannot be read. */
function jsonlPath(job: JsonlJob, root: WorkerRoot): { path: string } | { problem: string } {
  if (isAbsolute(job.file)) return { path: job.file };
  if (root === undefined) return { problem: NO_ROOT };
  const path = resolve(root, job.file);
  if (escapes(root, path)) return { problem: `file ${job.file} is not inside root ${root}` };
  return { path };
}

async function* jsonlItems(job: JsonlJob, root: WorkerRoot): AsyncGenerator<JobItem> {
  const where = jsonlPath(job, root);
  let problem = 'problem' in where ? where.problem : undefined;
  if ('path' in where) {
    try {
      if (statSync(where.path).size < job.offset + job.length) {
        problem = `${job.file} is shorter than when it was enqueued (it changed since)`;
      }
    } catch (error) {
      problem = `cannot read ${job.file}${root ? ` under root ${root}` : ''}: ${fsReason(error)}`;
    }
  }
  let n = 0;
  if (problem === undefined && 'path' in where) {
    const stream = createReadStream(where.path, {
      start: job.offset,
      end: job.offset + job.length - 1,
      encoding: 'utf8',
    });
    // refs are `<name>:<line in the range>`: renamed to the line in the file
    const tag = `\u0000${job.seq}`;
    for await (const item of jsonlSource(stream, { name: tag, ...job.items })) {
      const local = item.ref.startsWith(`${tag}:`) ? Number(item.ref.slice(tag.length + 1)) : NaN;
      if (!Number.isInteger(local)) {
        // the stream itself failed: the rest of the range fails with its reason
        problem = await loadFailure(item);
        break;
      }
      if (n >= job.count) {
        problem = `${job.file} has more documents in this range than when it was enqueued (it changed since)`;
        break;
      }
      item.ref = `${job.name}:${job.line + local - 1}`;
      yield { ordinal: job.start + n++, item };
    }
    if (problem === undefined && n < job.count) {
      problem = `${job.file} has fewer documents in this range than when it was enqueued (it changed since)`;
    }
  }
  for (; n < job.count; n++) {
    const ref = `${job.name} (document ${n + 1} of the range from line ${job.line})`;
    yield { ordinal: job.start + n, item: failing(ref, problem as string) };
  }
}

function* payloadItems(job: DocumentsJob): Generator<JobItem> {
  for (let i = 0; i < job.documents.length; i++) {
    const doc = job.documents[i] as DocumentsJob['documents'][number];
    const ordinal = job.start + i;
    const item: JobItem['item'] = { ref: doc.ref ?? `#${ordinal}`, document: doc.document };
    if (doc.ccPairId !== undefined) item.ccPairId = doc.ccPairId;
    yield { ordinal, item };
  }
}

/**
 * The rows of an SQL job's key range, read by the bounded query on this worker's connection, in
 * key order. A row gone since the enqueue leaves its ordinal failed with why; a database that
 * cannot be reached fails the job as a whole (BullMQ tries it again).
 */
async function* sqlItems(
  job: SqlJob,
  connections: WorkerPlace['connections'],
): AsyncGenerator<JobItem> {
  const connection = connections[job.connection] as string;
  const source = sqlSource({ ...job.mapping, connection });
  let n = 0;
  const range = { after: job.after, upTo: job.upTo, count: job.count, since: job.since };
  for await (const item of source.rangeItems(range)) yield { ordinal: job.start + n++, item };
  for (; n < job.count; n++) {
    const ref = `${job.database} (row ${n + 1} of the key range up to ${job.upTo})`;
    yield {
      ordinal: job.start + n,
      item: failing(
        ref,
        'the row is no longer in the range (deleted, or its key changed, since the run was enqueued)',
      ),
    };
  }
}

/** The files of a git job, read from their blobs in the repository under this worker's root. */
async function* gitItems(job: GitJob, root: WorkerRoot): AsyncGenerator<JobItem> {
  if (root === undefined) {
    for (let i = 0; i < job.count; i++) {
      const path = job.files[i]?.path ?? '';
      yield { ordinal: job.start + i, item: failing(job.idPrefix + path, NO_ROOT) };
    }
    return;
  }
  const repository = resolve(root, job.repo);
  // the producer's git source, as it made ids and fingerprints
  const source = gitSource({
    repository,
    idPrefix: job.idPrefix,
    link: job.link,
    source: job.source,
  });
  let n = 0;
  try {
    for await (const item of source.fileItems(job.files, { commit: job.commit, ref: job.ref })) {
      yield { ordinal: job.start + n++, item };
    }
  } finally {
    source.close();
  }
}

/** The job's documents in order, each with its ordinal; the job's pair unless one has its own. */
export async function* jobItems(job: JobData, place: WorkerPlace): AsyncGenerator<JobItem> {
  const { root } = place;
  const items =
    job.kind === 'files'
      ? fileItems(job, root)
      : job.kind === 'jsonl'
        ? jsonlItems(job, root)
        : job.kind === 'sql'
          ? sqlItems(job, place.connections)
          : job.kind === 'git'
            ? gitItems(job, root)
            : payloadItems(job);
  for await (const entry of items) {
    if (job.ccPairId !== undefined && entry.item.ccPairId === undefined) {
      entry.item.ccPairId = job.ccPairId;
    }
    yield entry;
  }
}
