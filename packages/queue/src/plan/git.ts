/**
 * A git source cut into jobs of files of one commit, by path and blob id: the producer lists what
 * its run reads (every file, or the diff since the last stored commit) without reading a blob;
 * workers read the blobs from the repository under their root.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { GitSource } from '@kis/node';
import { QueueUsageError } from '../errors.js';
import type { GitJob } from '../job-data.js';
import { checkRoot } from './files.js';

/** The files of a repository under the root every worker mounts. */
export interface GitQueueSource {
  kind: 'git';
  /** The source as the producer reads it (`gitSource` of `@kis/node` on a local repository). */
  source: GitSource;
  /** The folder every worker mounts, holding the repository. */
  root: string;
}

export function checkGitSource(source: GitQueueSource): void {
  if (source.source === null || typeof source.source?.files !== 'function') {
    throw new QueueUsageError('source.source must be a git source (gitSource of @kis/node)');
  }
  checkRoot(source.root, 'source.root');
}

/** The repository's path as jobs name it: under the root, `/`-separated. */
function repoUnderRoot(root: string, repository: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repository)) {
    throw new QueueUsageError(
      `repository ${repository} is not on disk: queue mode reads repositories under the root every worker mounts (clone it there)`,
    );
  }
  const rel = relative(root, resolve(repository));
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new QueueUsageError(
      `repository ${repository} is outside root ${root}: workers read it under their root`,
    );
  }
  return rel === '' ? '.' : rel.split(sep).join('/');
}

/** The jobs of a git source: `batchSize` files of the run's commit each. */
export async function* gitJobs(
  source: GitQueueSource,
  batchSize: number,
): AsyncGenerator<Omit<GitJob, 'v' | 'run' | 'seq' | 'start' | 'ccPairId' | 'items' | 'acks'>> {
  const root = checkRoot(source.root, 'source.root');
  const git = source.source;
  let files: GitJob['files'] = [];
  let repo: string | undefined;
  const job = () => {
    const run = git.run as NonNullable<GitSource['run']>;
    repo ??= repoUnderRoot(root, git.repository);
    return {
      kind: 'git' as const,
      count: files.length,
      repo,
      commit: run.commit,
      ref: run.ref,
      idPrefix: git.idPrefix,
      ...(git.link === undefined ? {} : { link: git.link }),
      ...(git.source === undefined ? {} : { source: git.source }),
      files,
    };
  };
  for await (const file of git.files()) {
    files.push(
      file.size === undefined
        ? { path: file.path, blob: file.blob }
        : { path: file.path, blob: file.blob, size: file.size },
    );
    if (files.length >= batchSize) {
      yield job();
      files = [];
    }
  }
  if (files.length > 0) yield job();
}
