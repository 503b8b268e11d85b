/**
 * The repository a git source reads: a local path or `file://` URL read in place, or an
 * `https://`/`ssh://` URL fetched into a bare cache (the URL is given to each fetch, never stored,
 * so its credentials stay out of the cache's files). Refs resolve to commits here.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hash64 } from '../../journal/string-hash.js';
import { GitSourceError } from './errors.js';
import { git, withoutCredentials } from './run-git.js';

export interface Repository {
  /** Where git runs: the work tree or bare repository (the cache, for a remote). */
  readonly dir: string;
  /** The repository as shown: its path, or its URL without credentials. */
  readonly shown: string;
  /** Its name: the last part of the path or URL, without `.git`. */
  readonly name: string;
}

const REMOTE = /^(?:https?|ssh|git):\/\//i;
/** `user@host:path`, the scp-like form of an ssh URL. */
const SCP_LIKE = /^[^/\s@]+@[^/\s:]+:/;

/** The name of a repository: `docs` for `/srv/docs`, `https://host/acme/docs.git`, `…/docs/.git`. */
export function repositoryName(location: string): string {
  const trimmed = location.replace(/[/\\]+$/, '').replace(/\/\.git$/, '');
  const last = basename(trimmed.replace(/^.*:/, (m) => (SCP_LIKE.test(trimmed) ? '' : m)));
  return last.replace(/\.git$/, '') || 'repository';
}

/** Opens (and for a remote, fetches) the repository; throws one line when it is not one. */
export async function openRepository(
  repository: string,
  options: { cacheDir?: string | undefined; cwd?: string | undefined } = {},
): Promise<Repository> {
  if (typeof repository !== 'string' || repository === '') {
    throw new GitSourceError(
      'repository must be a path, a file:// URL, or an https:// or ssh:// URL',
    );
  }
  const cwd = options.cwd ?? process.cwd();
  if (REMOTE.test(repository) || SCP_LIKE.test(repository)) {
    const shown = withoutCredentials(repository);
    const [a, b] = hash64(shown);
    const dir = resolve(
      cwd,
      options.cacheDir ??
        join('.kis', 'git', `${repositoryName(shown)}-${a.toString(16)}${b.toString(16)}`),
    );
    if (!existsSync(join(dir, 'HEAD'))) {
      mkdirSync(dir, { recursive: true });
      await git(['init', '--bare', '--quiet'], dir);
    }
    try {
      await git(
        ['fetch', '--quiet', '--prune', '--tags', '--', repository, '+refs/heads/*:refs/heads/*'],
        dir,
      );
    } catch (error) {
      throw new GitSourceError(`cannot fetch ${shown}: ${(error as Error).message}`);
    }
    return { dir, shown, name: repositoryName(shown) };
  }
  const path = repository.startsWith('file://')
    ? fileURLToPath(repository)
    : resolve(cwd, repository);
  if (!existsSync(path)) throw new GitSourceError(`repository ${path}: no such directory`);
  try {
    await git(['rev-parse', '--git-dir'], path);
  } catch (error) {
    if ((error as Error).message.includes('git program')) throw error;
    throw new GitSourceError(`${path} is not a git repository`);
  }
  return { dir: path, shown: path, name: repositoryName(path) };
}

/** The commit a branch, tag or commit names; one line naming the ref when it names none. */
export async function resolveRef(repo: Repository, ref: string): Promise<string> {
  if (typeof ref !== 'string' || ref === '' || ref.startsWith('-')) {
    throw new GitSourceError(
      `ref must name a branch, a tag or a commit (got ${JSON.stringify(ref)})`,
    );
  }
  try {
    return (
      await git(
        ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`],
        repo.dir,
      )
    ).trim();
  } catch {
    throw new GitSourceError(
      `unknown ref "${ref}" in ${repo.shown}: no branch, tag or commit of that name`,
    );
  }
}

/** The default branch (HEAD) of the repository. */
export async function headRef(repo: Repository): Promise<string> {
  try {
    return (await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], repo.dir)).trim();
  } catch {
    return 'HEAD';
  }
}

/** Whether the repository holds `commit` (a shallow clone or a collected force push may not). */
export async function hasCommit(repo: Repository, commit: string): Promise<boolean> {
  return git(['cat-file', '-e', `${commit}^{commit}`], repo.dir).then(
    () => true,
    () => false,
  );
}

/** Whether `older` is an ancestor of `newer` (false after history was rewritten). */
export async function isAncestor(repo: Repository, older: string, newer: string): Promise<boolean> {
  return git(['merge-base', '--is-ancestor', older, newer], repo.dir).then(
    () => true,
    () => false,
  );
}

export async function isShallow(repo: Repository): Promise<boolean> {
  return (await git(['rev-parse', '--is-shallow-repository'], repo.dir)).trim() === 'true';
}

/** The committer date of a commit (ISO 8601). */
export async function commitDate(repo: Repository, commit: string): Promise<string> {
  const iso = (await git(['show', '-s', '--format=%cI', commit], repo.dir)).trim();
  return new Date(iso).toISOString();
}
