/** The caller's callbacks on a run (`onResult`, `onProgress`, `onAttempt`). */
import type { LevelLogger } from '../../logging.js';
import { errorOf } from './error-of.js';

/**
 * `hook` with its throws logged, not taken for the run's or the request's failure; wrapped once
 * per run, so a call costs no closure.
 */
export function guarded<T>(
  log: LevelLogger,
  name: string,
  hook: ((value: T) => void) | undefined,
): ((value: T) => void) | undefined {
  if (hook === undefined) return undefined;
  return (value) => {
    try {
      hook(value);
    } catch (err) {
      log.log('warn', `ingestMany: ${name} threw: ${errorOf(err).message}`);
    }
  };
}
