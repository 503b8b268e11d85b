/** Any thrown value as a `KisError`: results and logs of a run carry one kind of error. */
import { KisError } from '../../errors.js';

export function errorOf(err: unknown): KisError {
  return KisError.isInstance(err)
    ? err
    : new KisError(String((err as Error)?.message ?? err), { cause: err });
}
