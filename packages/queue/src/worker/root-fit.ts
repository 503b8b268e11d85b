/**
 * Whether a worker's root holds what a job names, checked before the job sends anything: a
 * worker started with the wrong `--root` would otherwise fail every document of every job it
 * takes as unreadable. A job does not fit when none of its files exists and none of their
 * folders below the root does either (files deleted since the enqueue leave their folders, and
 * fail alone), or when its JSONL file or repository is missing. SQL jobs need a connection, not
 * a root (`connectionMisfit`).
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { JobData } from '../job-data.js';
import type { WorkerRoot } from './job-items.js';

/** Why the job does not fit the root (a sentence naming a path), or undefined when it does. */
export function rootMisfit(job: JobData, root: WorkerRoot): string | undefined {
  if (root === undefined || job.kind === 'documents' || job.kind === 'sql') return undefined;
  if (job.kind === 'git') {
    if (existsSync(resolve(root, job.repo))) return undefined;
    return `root ${root} does not hold the repository ${job.repo}, which run ${job.run} reads`;
  }
  if (job.kind === 'jsonl') {
    if (isAbsolute(job.file) || existsSync(resolve(root, job.file))) return undefined;
    return `root ${root} does not hold ${job.file}, which run ${job.run} reads`;
  }
  const dir = job.dir ? resolve(root, job.dir) : root;
  let folderSeen = false;
  for (const path of job.paths) {
    const file = resolve(dir, path);
    if (existsSync(file)) return undefined;
    const folder = dirname(file);
    if (folder !== root && existsSync(folder)) folderSeen = true;
  }
  if (folderSeen || job.paths.length === 0) return undefined;
  const first = job.dir ? `${job.dir}/${job.paths[0]}` : job.paths[0];
  return `root ${root} holds none of the ${job.paths.length} file(s) job ${job.run}.${job.seq} names (such as ${first}) nor their folders`;
}

/** The fix to print after a misfit. */
export const ROOT_FIX =
  'start the worker with --root set to the folder the producer gave as --root, as mounted on this machine';

/** Why the worker cannot run an SQL job: it holds no connection of the name the job gives. */
export function connectionMisfit(
  job: JobData,
  connections: Readonly<Record<string, string>>,
): string | undefined {
  if (job.kind !== 'sql' || Object.hasOwn(connections, job.connection)) return undefined;
  const held = Object.keys(connections);
  return `this worker holds no connection "${job.connection}" (${job.database}), which run ${job.run} reads${held.length > 0 ? `; it holds ${held.map((n) => `"${n}"`).join(', ')}` : ''}: start it with connections: { ${job.connection}: <connection string> }`;
}
