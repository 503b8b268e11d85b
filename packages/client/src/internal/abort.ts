/**
 * Cancellation shared by many requests. A bulk run has thousands of requests and waits on one
 * cancellation; one listener each on a single AbortSignal would set off Node's max-listeners
 * warning, so they register here instead, and every registration is removed when its request ends.
 */

/** A set of aborts fired together. */
export interface AbortRegistry {
  readonly signal: AbortSignal;
  add(abort: () => void): void;
  delete(abort: () => void): void;
}

/**
 * Calls `abort` when the registry fires or the signal aborts; returns the undo, which must run
 * when the request ends so nothing of it stays reachable from a long-lived signal.
 */
export function onAbort(
  abort: () => void,
  registry: AbortRegistry | undefined,
  signal: AbortSignal | null | undefined,
): () => void {
  if (registry) {
    registry.add(abort);
    return () => registry.delete(abort);
  }
  if (!signal) return () => undefined;
  signal.addEventListener('abort', abort, { once: true });
  return () => signal.removeEventListener('abort', abort);
}
