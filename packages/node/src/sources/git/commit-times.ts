/**
 * When each file of a commit last changed, its documents' `doc_updated_at`: the committer date of
 * the newest commit that touched it, read from one `git log --name-only` from the commit as it
 * streams. A file unchanged since an earlier push keeps its time, which the server's hash gate
 * skips, where the commit's own date would have every file re-embedded at each new commit. The
 * log starts when a file is first read, and stops once every file of the run has its time.
 */
import type { ChildProcess } from 'node:child_process';
import { nulFields } from './records.js';
import type { Repository } from './repo.js';
import { gitProcess } from './run-git.js';

/** The mark `--format` puts before each commit's date (git's fields are NUL-separated). */
const COMMIT_MARK = '\u0001';

export class CommitTimes {
  /** Every path the log has passed, with the time it last changed. */
  readonly #known = new Map<string, string>();
  /** Paths of the run not dated yet, with what waits for them. */
  readonly #wanted = new Map<string, ((time: string) => void)[]>();
  #child: ChildProcess | undefined;
  #started = false;
  #ended = false;
  #complete = false;

  /** `fallback`: the time of a file the log never names (the commit's own date). */
  constructor(
    private readonly repo: Repository,
    private readonly commit: string,
    private readonly fallback: string,
  ) {}

  /** A file of the run: looked for until found, once the log runs. */
  want(path: string): void {
    if (this.#ended || this.#known.has(path) || this.#wanted.has(path)) return;
    this.#wanted.set(path, []);
  }

  /** The run names no more files: the log stops once those it named are dated. */
  complete(): void {
    this.#complete = true;
    this.#stopIfDone();
  }

  /** When `path` last changed (ISO 8601, UTC). */
  of(path: string): Promise<string> {
    const known = this.#known.get(path);
    if (known !== undefined) return Promise.resolve(known);
    if (this.#ended) return Promise.resolve(this.fallback);
    this.want(path);
    const waiting = this.#wanted.get(path) as ((time: string) => void)[];
    const answer = new Promise<string>((resolve) => waiting.push(resolve));
    if (!this.#started) this.#start();
    return answer;
  }

  #start(): void {
    this.#started = true;
    const args = ['log', '-z', '--name-only', '--no-renames', `--format=${COMMIT_MARK}%cI`];
    this.#child = gitProcess([...args, this.commit, '--'], this.repo.dir);
    this.#read(this.#child).then(
      () => this.#end(),
      () => this.#end(), // a log that fails dates the rest with the commit's own time
    );
  }

  async #read(child: ChildProcess): Promise<void> {
    let time = this.fallback;
    for await (const raw of nulFields(child)) {
      // each commit's file list starts on a new line after its date
      const field = raw.startsWith('\n') ? raw.slice(1) : raw;
      if (field.startsWith(COMMIT_MARK)) {
        time = new Date(field.slice(1)).toISOString();
        continue;
      }
      if (field === '' || this.#known.has(field)) continue;
      this.#known.set(field, time);
      const waiting = this.#wanted.get(field);
      if (waiting === undefined) continue;
      this.#wanted.delete(field);
      for (const resolve of waiting) resolve(time);
      if (this.#stopIfDone()) return;
    }
  }

  /** True (and the log ended) when every file of a complete run is dated. */
  #stopIfDone(): boolean {
    if (!this.#complete || this.#wanted.size > 0 || !this.#started || this.#ended) return false;
    this.#child?.kill();
    this.#end();
    return true;
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const waiting of this.#wanted.values())
      for (const resolve of waiting) resolve(this.fallback);
    this.#wanted.clear();
  }
}
