/**
 * `gitSource`: the files of a repository at a branch, tag or commit as documents, with the kinds
 * and extraction of a folder's files, read from their blobs by the system `git`. Incremental: a
 * run after one that stored its commit reads only what the diff between the two commits changed
 * (renames as a delete and a create), and a full run proves unchanged files by their blob ids,
 * so no unchanged file is ever read or hashed. README of @kis/node, "Git source".
 */
import { normalizeDocumentId } from '@kis/rules';
import { failing, type ItemOptions, type SourceItem } from '../items.js';
import type { RunOutcome, SourceStateStore } from '../source-state.js';
import { createFilter } from '../walk.js';
import { BlobReader } from './blobs.js';
import { CommitTimes } from './commit-times.js';
import { type TreeChanges, treeChanges } from './diff.js';
import { GitSourceError } from './errors.js';
import {
  type FileContext,
  type GitFile,
  gitEntry,
  ignoredReason,
  optionsStamp,
  parseGitLink,
} from './files.js';
import { decideRun, type GitCommitState, type GitRun, readCommitState } from './incremental.js';
import {
  type Commit,
  openRepository,
  type Repository,
  repositoryName,
  resolveRef,
} from './repo.js';
import { withoutCredentials } from './run-git.js';
import { treeFiles } from './tree.js';

export interface GitSourceOptions extends ItemOptions {
  /** A local path, a `file://` URL, or an `https://` or `ssh://` URL (fetched into `cacheDir`). */
  repository: string;
  /** A branch, tag or commit (default: the repository's HEAD branch). */
  ref?: string | undefined;
  /**
   * Each section's link: `{ref}`, `{commit}` and `{path}` replaced, e.g.
   * `https://github.com/acme/docs/blob/{ref}/{path}`.
   */
  link?: string | undefined;
  /** Put before each path to make its id (default `<repository name>/`, as a folder's). */
  idPrefix?: string | undefined;
  /** Globs a path must match one of (a glob without `/` matches the file name at any depth). */
  include?: readonly string[] | undefined;
  /** Globs that leave a path out. */
  exclude?: readonly string[] | undefined;
  /** Where the last stored commit is kept between runs: the run's journal (`openJournal`). */
  state?: SourceStateStore | undefined;
  /** Read every file (each still proven unchanged by its blob id), whatever the state holds. */
  full?: boolean | undefined;
  /** Where a remote repository is fetched to (default `.kis/git/<name>-<hash>`). */
  cacheDir?: string | undefined;
  /** Hears of each file left out, with why (hidden, an unsupported type). */
  onIgnored?: ((ref: string, reason: string) => void) | undefined;
}

export interface GitSource extends AsyncIterable<SourceItem> {
  /** The repository as shown: its path, or its URL without credentials. */
  readonly repository: string;
  /** Ids start with this (`<repository name>/` unless given). */
  readonly idPrefix: string;
  /** The link template, and the documents' `source`, as given (queue jobs carry them). */
  readonly link: string | undefined;
  readonly source: string | undefined;
  /** Whether a stored id is this source's (under its prefix). */
  owns(documentId: string): boolean;
  readonly ownsEverything: boolean;
  /** Opens the repository and resolves the ref; resolves with the commit (errors: one line). */
  check(): Promise<string>;
  /** The last iteration's (or `files()`'s) run: full or incremental, which commits, why. */
  readonly run: GitRun | undefined;
  /** After an incremental iteration: every id the commit holds (sync deletes the others). */
  presentIds(): AsyncIterable<string> | undefined;
  /** Records the commit for the next run when the run stored what it was given. */
  finish(outcome: RunOutcome): Promise<boolean>;
  /** The files a run reads, without reading them (queue mode's producer); sets `run`. */
  files(): AsyncGenerator<GitFile>;
  /** Items of files of one commit (a queue worker's job). */
  fileItems(
    files: readonly GitFile[],
    at: { commit: string; ref: string },
  ): AsyncGenerator<SourceItem>;
  /** Ends the `git cat-file` that reads blobs (it also ends with the process). */
  close(): void;
}

/** The files of a repository as documents (README of @kis/node, "Git source"). */
export function gitSource(options: GitSourceOptions): GitSource {
  if (typeof options?.repository !== 'string' || options.repository === '') {
    throw new GitSourceError(
      'repository must be a path, a file:// URL, or an https:// or ssh:// URL',
    );
  }
  const link = options.link === undefined ? undefined : parseGitLink(options.link);
  const shownGiven = withoutCredentials(options.repository);
  const idPrefix = options.idPrefix ?? `${repositoryName(shownGiven)}/`;
  const owned = normalizeDocumentId(idPrefix);
  const accept = createFilter({ include: options.include ?? [], exclude: options.exclude ?? [] });
  const stamp = optionsStamp(options.source, options.link);
  const itemOptions: ItemOptions = options;
  let repo: Repository | undefined;
  let reader: BlobReader | undefined;
  let run: GitRun | undefined;
  let stateKey: string | undefined;
  let failures = { count: 0 };
  /** When each file last changed, per commit read (a worker may read several). */
  const times = new Map<string, CommitTimes>();

  const open = async () => {
    repo ??= await openRepository(options.repository, { cacheDir: options.cacheDir });
    return repo;
  };

  /** The context of the files of one commit. */
  const contextOf = (r: Repository, commit: Commit, ref: string): FileContext => {
    reader ??= new BlobReader(r);
    failures = { count: 0 };
    let dated = times.get(commit.sha);
    if (dated === undefined) {
      dated = new CommitTimes(r, commit.sha, commit.date);
      times.set(commit.sha, dated);
    }
    return {
      reader,
      commit: commit.sha,
      ref,
      idPrefix,
      link,
      times: dated,
      options: itemOptions,
      failures,
      stamp,
    };
  };

  /** The diff and the listing of an incremental run, asked for while its mode is decided. */
  let ahead: { changes: Promise<TreeChanges>; ids: Promise<string[]> } | undefined;

  /**
   * Decides the run: the ref's commit, and full or from the last stored commit. The diff from
   * that commit and the commit's listing (a sync's key set) are asked for meanwhile, each git
   * process started at once rather than one after the other; a full run drops them.
   */
  const decide = async (): Promise<{ r: Repository; decided: GitRun; commit: Commit }> => {
    const r = await open();
    const commit = await resolveRef(r, options.ref ?? 'HEAD');
    const ref = options.ref ?? commit.branch ?? 'HEAD';
    stateKey = `git:${r.shown}#${ref}@${idPrefix}`;
    const stored = options.state
      ? readCommitState(await options.state.stateOf(stateKey))
      : undefined;
    ahead = undefined;
    if (stored !== undefined && options.full !== true) {
      ahead = {
        changes:
          stored.commit === commit.sha
            ? Promise.resolve({ changed: [], removed: [] })
            : treeChanges(r, stored.commit, commit.sha),
        ids: presentOf(r, commit.sha),
      };
      // a run that turns out full never awaits them
      ahead.changes.catch(() => undefined);
      ahead.ids.catch(() => undefined);
    }
    const decided = await decideRun(r, ref, commit.sha, stored, options.full === true);
    if (decided.why) options.onWarning?.(r.shown, decided.why);
    run = decided;
    return { r, decided, commit };
  };

  /** The ids of a commit's files that are documents (the same tests as the items'). */
  const presentOf = async (r: Repository, commit: string): Promise<string[]> => {
    const ids: string[] = [];
    for await (const file of treeFiles(r, commit)) {
      if (accept([file.path]) && ignoredReason(file.path) === undefined)
        ids.push(idPrefix + file.path);
    }
    return ids;
  };

  /** The files the run reads: every file of the commit, or what changed since the last one. */
  async function* runFiles(r: Repository, decided: GitRun): AsyncGenerator<GitFile> {
    if (decided.mode === 'full' || ahead === undefined) {
      yield* treeFiles(r, decided.commit);
      return;
    }
    yield* (await ahead.changes).changed;
  }

  /** Whether the last reading (items, or files for queue jobs) got to the end: only then may the
   * next run start from its commit. */
  let readToEnd = false;

  return {
    get repository() {
      return repo?.shown ?? shownGiven;
    },
    idPrefix,
    link: options.link,
    source: options.source,
    owns: (id) => id.startsWith(owned),
    ownsEverything: owned === '',
    get run() {
      return run;
    },
    async check() {
      const r = await open();
      return (await resolveRef(r, options.ref ?? 'HEAD')).sha;
    },
    async *[Symbol.asyncIterator]() {
      readToEnd = false;
      const { r, decided, commit } = await decide();
      const context = contextOf(r, commit, decided.ref);
      for await (const file of runFiles(r, decided)) {
        if (!accept([file.path])) continue;
        const entry = gitEntry(file, context);
        if (entry.kind === 'item') yield entry.item;
        else options.onIgnored?.(idPrefix + entry.path, entry.reason);
      }
      context.times.complete();
      readToEnd = true;
    },
    presentIds() {
      if (run?.mode !== 'incremental' || ahead === undefined) return undefined;
      const ids = ahead.ids;
      return (async function* () {
        yield* await ids;
      })();
    },
    async finish(outcome) {
      if (!options.state || stateKey === undefined || run === undefined) return false;
      // a run stopped between documents aborts none of them, yet never read the rest
      if (!readToEnd || outcome.aborted > 0 || outcome.stopped || outcome.cancelled) return false;
      if (outcome.failed > failures.count) return false;
      const value: GitCommitState = { v: 1, commit: run.commit };
      await options.state.recordState(stateKey, value);
      return true;
    },
    async *files() {
      readToEnd = false;
      const { r, decided } = await decide();
      for await (const file of runFiles(r, decided)) {
        if (!accept([file.path])) continue;
        const reason = ignoredReason(file.path);
        if (reason === undefined) yield file;
        else options.onIgnored?.(idPrefix + file.path, reason);
      }
      readToEnd = true;
    },
    async *fileItems(files, at) {
      const r = await open();
      const context = contextOf(r, await resolveRef(r, at.commit), at.ref);
      for (const file of files) {
        const entry = gitEntry(file, context);
        // one item per file named: what cannot be read fails alone, with why
        yield entry.kind === 'item' ? entry.item : failing(idPrefix + file.path, entry.reason);
      }
      context.times.complete();
    },
    close() {
      reader?.close();
      reader = undefined;
    },
  };
}
