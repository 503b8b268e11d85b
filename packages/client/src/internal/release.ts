/**
 * The server's release, asked once per client (`GET /version`): what `already_existed` means and
 * how a model switch builds its index depend on it (the rule book's `server-versions.ts`). A server
 * without the route (one that follows the seed) has none: the rule book reads that as the newest.
 */
/** The release as `backend_version` says it, or undefined when the server does not say. */
export type ReleaseOf = () => Promise<string | undefined>;

/**
 * `version()` asked on first use and kept; a failure is not kept (the next call asks again), so
 * a server that was briefly unreachable is not read as the newest for the client's lifetime.
 */
export function releaseMemory(
  version: () => Promise<{ backendVersion: string } | null>,
): ReleaseOf {
  let known: Promise<string | undefined> | undefined;
  return () => {
    known ??= version().then(
      (v) => v?.backendVersion,
      (err: unknown) => {
        known = undefined;
        throw err;
      },
    );
    return known;
  };
}
