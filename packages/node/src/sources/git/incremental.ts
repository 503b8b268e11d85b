/**
 * Which files a git source reads: after a run that stored its commit, only what changed from that
 * commit (a diff); every file (each proven by its blob id, unread) when there is no such commit,
 * when it is missing (a shallow clone, a collected force push) or is no longer an ancestor (a
 * rewritten history), each of those said aloud.
 */
import type { SourceState } from '../source-state.js';
import { ancestry, isShallow, type Repository } from './repo.js';

/** What a git source records in the journal: the commit its last complete run read. */
export interface GitCommitState extends SourceState {
  v: 1;
  commit: string;
}

/** The run's mode, from which commit, and why a full read when a diff was possible. */
export interface GitRun {
  mode: 'full' | 'incremental';
  commit: string;
  ref: string;
  /** The commit diffed from (incremental runs). */
  from: string | undefined;
  why: string | undefined;
}

/** A stored state this version reads, else undefined. */
export function readCommitState(stored: unknown): GitCommitState | undefined {
  if (stored === null || typeof stored !== 'object') return undefined;
  const s = stored as Partial<GitCommitState>;
  return s.v === 1 && typeof s.commit === 'string' && /^[0-9a-f]{40,64}$/.test(s.commit)
    ? { v: 1, commit: s.commit }
    : undefined;
}

export async function decideRun(
  repo: Repository,
  ref: string,
  commit: string,
  stored: GitCommitState | undefined,
  full: boolean,
): Promise<GitRun> {
  const run = (mode: GitRun['mode'], from?: string, why?: string): GitRun => ({
    mode,
    commit,
    ref,
    from,
    why,
  });
  if (full || stored === undefined) return run('full');
  const last = stored.commit;
  if (last === commit) return run('incremental', last);
  const related = await ancestry(repo, last, commit);
  if (related === 'missing') {
    const shallow = (await isShallow(repo))
      ? ' (the repository is a shallow clone)'
      : ' (history rewritten and collected?)';
    return run(
      'full',
      undefined,
      `the last synced commit ${last.slice(0, 12)} is not in ${repo.shown}${shallow}: reading every file; unchanged ones are proven by their blob ids, not sent`,
    );
  }
  if (related === 'no') {
    return run(
      'full',
      undefined,
      `the last synced commit ${last.slice(0, 12)} is not an ancestor of ${ref} (${commit.slice(0, 12)}): history was rewritten (a force push?); reading every file; unchanged ones are proven by their blob ids, not sent`,
    );
  }
  return run('incremental', last);
}
