/**
 * What a job holds: a reference to its documents, never the documents of a file (README, "Jobs").
 * Every document of a run has an ordinal (0, 1, ... in enqueue order); a job holds `count`
 * documents from ordinal `start`, and the run's state records each ordinal stored or failed.
 */
import type { IngestionDocumentInput } from '@kis/client';
import type { SqlKey, SqlMapping } from '@kis/node';

/** How documents are built from what a job names (the same options as local runs). */
export interface JobItemOptions {
  /** The `source` of file documents, and of JSONL documents without one. */
  source?: string | undefined;
  /** Put before every document id. */
  idPrefix?: string | undefined;
}

/** The version of the shape jobs are added with; workers read it and the ones before. */
export const JOB_VERSION = 3;

/** The versions this worker reads. */
const READ_VERSIONS: readonly unknown[] = [1, 2, 3];

interface JobBase {
  /**
   * Version of this shape. 2 added `dir`, `keyPrefix` and `acks` (a worker that reads only 1
   * would give files other ids, so it refuses the job instead); 3 added the `sql` and `git`
   * kinds (a worker that reads only 2 refuses them, and every job of a producer that writes 3).
   */
  v: 1 | 2 | 3;
  /** The run (one enqueue) the job belongs to. */
  run: string;
  /** The job's place in its run (0, 1, ...). */
  seq: number;
  /** Ordinal of the job's first document in the run. */
  start: number;
  /** Documents in the job. */
  count: number;
  /** Pair the documents are attached to (absent: the server's default). */
  ccPairId?: number | null | undefined;
  items?: JobItemOptions | undefined;
  /** Record each stored document's content hash and fingerprint (a sync feeds its journal). */
  acks?: true | undefined;
}

/**
 * Files by path relative to a folder under the root every worker mounts. Their keys (names, ids,
 * `relative_path`) are `keyPrefix` and that path: the keys a local run gives them (plan/files.ts).
 */
export interface FilesJob extends JobBase {
  kind: 'files';
  /** The folder the paths are relative to, under the root (`/`-separated; absent: the root). */
  dir?: string | undefined;
  /** Put before each path to make its key (absent: none). */
  keyPrefix?: string | undefined;
  paths: string[];
}

/** A byte range of a JSONL file: whole lines, from line `line` (1-based) on. */
export interface JsonlJob extends JobBase {
  kind: 'jsonl';
  /** The file: relative to the worker's root, or absolute. */
  file: string;
  /** How its documents are named (`<name>:<line>`). */
  name: string;
  offset: number;
  length: number;
  line: number;
}

/** One in-memory document (serialised, bounded in size). */
export interface PayloadDocument {
  document: IngestionDocumentInput;
  ccPairId?: number | null | undefined;
  ref?: string | undefined;
}

/** Documents that exist only in memory, carried in the job (bounded, see enqueue's limits). */
export interface DocumentsJob extends JobBase {
  kind: 'documents';
  documents: PayloadDocument[];
}

/**
 * Rows of an SQL query in a key range: the worker runs the bounded query itself. The job names the
 * connection by a name each worker maps to its own connection string (`connections`): no
 * connection string, password or row travels through Redis.
 */
export interface SqlJob extends JobBase {
  kind: 'sql';
  /** The name of the connection in the worker's `connections`. */
  connection: string;
  /** The database as the producer saw it, without password (for messages). */
  database: string;
  mapping: SqlMapping;
  /** Keys after this one (exclusive; null: from the first) up to `upTo` (inclusive). */
  after: SqlKey | null;
  upTo: SqlKey;
  /** The run's cursor: rows whose update time reached it only (an incremental run). */
  since?: SqlKey | null | undefined;
}

/** Files of one commit of a repository under the root, by path and blob id. */
export interface GitJob extends JobBase {
  kind: 'git';
  /** The repository: relative to the worker's root (`/`-separated; `.` for the root itself). */
  repo: string;
  commit: string;
  /** The ref the commit was named by (links use it). */
  ref: string;
  /** Put before each path to make its id (as the producer's local run). */
  idPrefix: string;
  /** The link template of each section, and the documents' `source` (the git source's). */
  link?: string | undefined;
  source?: string | undefined;
  files: { path: string; blob: string; size?: number | undefined }[];
}

export type JobData = FilesJob | JsonlJob | DocumentsJob | SqlJob | GitJob;

/** A job's id: its run and place, so the jobs of a run are found and never added twice. */
export function jobIdOf(run: string, seq: number): string {
  return `${run}.${seq}`;
}

/** The run of a job id made by {@link jobIdOf}, or undefined for a job this package did not add. */
export function runOfJobId(jobId: string | undefined): string | undefined {
  if (jobId === undefined) return undefined;
  const dot = jobId.lastIndexOf('.');
  return dot > 0 ? jobId.slice(0, dot) : undefined;
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
const isKey = (k: unknown): k is SqlKey => typeof k === 'string' || typeof k === 'number';

/** Checks a job's data before a worker acts on it; the reason when it is not this shape. */
export function jobDataProblem(data: unknown): string | undefined {
  if (data === null || typeof data !== 'object') return 'job data is not an object';
  const d = data as Partial<JobData> & Record<string, unknown>;
  if (!READ_VERSIONS.includes(d.v)) {
    return `job data version ${JSON.stringify(d.v)} is not one this worker reads (1, 2 or 3): upgrade the worker`;
  }
  if (typeof d.run !== 'string' || d.run === '') return 'job data has no run id';
  if (!isCount(d.seq) || !isCount(d.start) || !isCount(d.count) || d.count === 0) {
    return 'job data has no valid seq/start/count';
  }
  switch (d.kind) {
    case 'files':
      if (d.dir !== undefined && typeof d.dir !== 'string') return 'files job dir must be a string';
      if (d.keyPrefix !== undefined && typeof d.keyPrefix !== 'string') {
        return 'files job keyPrefix must be a string';
      }
      return Array.isArray(d.paths) &&
        d.paths.length === d.count &&
        d.paths.every((p) => typeof p === 'string')
        ? undefined
        : 'files job must list `count` paths';
    case 'jsonl':
      return typeof d.file === 'string' &&
        typeof d.name === 'string' &&
        isCount(d.offset) &&
        isCount(d.length) &&
        isCount(d.line)
        ? undefined
        : 'jsonl job must give file, name, offset, length and line';
    case 'documents':
      return Array.isArray(d.documents) && d.documents.length === d.count
        ? undefined
        : 'documents job must carry `count` documents';
    case 'sql':
      return typeof d.connection === 'string' &&
        d.connection !== '' &&
        typeof d.database === 'string' &&
        d.mapping !== null &&
        typeof d.mapping === 'object' &&
        isKey(d.upTo) &&
        (d.after === null || isKey(d.after))
        ? undefined
        : 'sql job must give connection, database, mapping and a key range (after, upTo)';
    case 'git':
      return typeof d.repo === 'string' &&
        typeof d.commit === 'string' &&
        typeof d.ref === 'string' &&
        typeof d.idPrefix === 'string' &&
        Array.isArray(d.files) &&
        d.files.length === d.count &&
        d.files.every((f) => typeof f?.path === 'string' && typeof f?.blob === 'string')
        ? undefined
        : 'git job must give repo, commit, ref, idPrefix and `count` files';
    default:
      return `unknown job kind ${JSON.stringify(d.kind)}`;
  }
}
