/**
 * Cancellation shared by many requests. A bulk run has thousands of requests and waits on one
 * cancellation; one listener each on a single AbortSignal would set off Node's max-listeners
 * warning, so they register here instead, and every registration is removed when its request ends.
 */
import { Registrations } from './registrations.js';

/** Aborts fired together. */
export interface AbortRegistry {
  readonly signal: AbortSignal;
  /** Registers `abort` to run when the registry fires; returns its removal. */
  add(abort: () => void): () => void;
}

/** A registry with its own signal; `abort(reason)` aborts it, then runs every registration, once. */
export function abortRegistry(): AbortRegistry & { abort(reason?: unknown): void } {
  const controller = new AbortController();
  const aborts = new Registrations<() => void>();
  return {
    signal: controller.signal,
    add: (abort) => aborts.add(abort),
    abort(reason) {
      if (controller.signal.aborted) return;
      controller.abort(reason);
      for (const abort of aborts.values()) abort();
    },
  };
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
  if (registry) return registry.add(abort);
  if (!signal) return () => undefined;
  signal.addEventListener('abort', abort, { once: true });
  return () => signal.removeEventListener('abort', abort);
}
