/**
 * Repositories named on a command line as `git+file:///srv/docs#main`, `git+https://host/x.git#v2`
 * or `git+ssh://git@host/x.git#<commit>`: the repository and the ref after `#`.
 */
import { GitSourceError } from './errors.js';
import { withoutCredentials } from './run-git.js';

/** True for a `git+<scheme>://…` location. */
export function isGitLocation(spec: string): boolean {
  return /^git\+(?:file|https?|ssh):\/\//i.test(spec);
}

/** The repository and ref of a `git+…` location (ref undefined without `#`). */
export function parseGitLocation(spec: string): { repository: string; ref: string | undefined } {
  if (!isGitLocation(spec)) {
    throw new GitSourceError(
      `${withoutCredentials(spec)} is not a git location: expected git+file:///PATH#REF, git+https://HOST/REPO#REF or git+ssh://HOST/REPO#REF`,
    );
  }
  const rest = spec.slice('git+'.length);
  const hash = rest.indexOf('#');
  if (hash === -1) return { repository: rest, ref: undefined };
  const ref = decodeURIComponent(rest.slice(hash + 1));
  return { repository: rest.slice(0, hash), ref: ref === '' ? undefined : ref };
}
