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
      // the cache's HEAD follows the remote's default branch (a run without a ref reads it)
      const head = /^ref: (refs\/heads\/\S+)\tHEAD$/m.exec(
        await git(['ls-remote', '--symref', '--', repository, 'HEAD'], dir),
      );
      if (head?.[1]) await git(['symbolic-ref', 'HEAD', head[1]], dir);
    } catch (error) {
      throw new GitSourceError(`cannot fetch ${shown}: ${(error as Error).message}`);
    }
    return { dir, shown, name: repositoryName(shown) };
  }
  const path = repository.startsWith('file://')
    ? fileURLToPath(repository)
    : resolve(cwd, repository);
  if (!existsSync(path)) throw new GitSourceError(`repository ${path}: no such directory`);
  // whether it is a repository shows with the first command run in it (one process fewer)
  return { dir: path, shown: path, name: repositoryName(path) };
}

/** A commit, its committer date (ISO 8601, UTC), and the branch HEAD names when read as HEAD. */
export interface Commit {
  sha: string;
  date: string;
  branch: string | undefined;
}

/**
 * The commit a branch, tag or commit names, with its date, in one git process; one line naming
 * the ref when it names none, or the folder when it is not a repository.
 */
export async function resolveRef(repo: Repository, ref: string): Promise<Commit> {
  if (typeof ref !== 'string' || ref === '' || ref.startsWith('-')) {
    throw new GitSourceError(
      `ref must name a branch, a tag or a commit (got ${JSON.stringify(ref)})`,
    );
  }
  let out: string;
  try {
    const format = '--format=%H %cI %D';
    out = await git(['log', '-1', format, '--end-of-options', `${ref}^{commit}`, '--'], repo.dir);
  } catch (error) {
    const message = (error as Error).message;
    if (message.includes('git program')) throw error;
    if (/not a git repository/i.test(message)) {
      throw new GitSourceError(`${repo.shown} is not a git repository`);
    }
    throw new GitSourceError(
      `unknown ref "${ref}" in ${repo.shown}: no branch, tag or commit of that name`,
    );
  }
  const [sha, iso, ...names] = out.trim().split(' ');
  // `HEAD -> main, tag: v1`: the branch HEAD is on, for links and the state's key
  const branch = ref === 'HEAD' ? /HEAD -> ([^,\s]+)/.exec(names.join(' '))?.[1] : undefined;
  return { sha: sha as string, date: new Date(iso as string).toISOString(), branch };
}

/**
 * Whether `older` is an ancestor of `newer` (`no` after history was rewritten), or is not in the
 * repository at all (`missing`: a shallow clone, a collected force push), in one git process.
 */
export async function ancestry(
  repo: Repository,
  older: string,
  newer: string,
): Promise<'ancestor' | 'no' | 'missing'> {
  try {
    await git(['merge-base', '--is-ancestor', older, newer], repo.dir);
    return 'ancestor';
  } catch (error) {
    return (error as { exitCode?: unknown }).exitCode === 1 ? 'no' : 'missing';
  }
}

export async function isShallow(repo: Repository): Promise<boolean> {
  return (await git(['rev-parse', '--is-shallow-repository'], repo.dir)).trim() === 'true';
}
