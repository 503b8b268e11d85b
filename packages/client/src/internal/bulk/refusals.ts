/**
 * Answers that no document of a run can get past, so the run stops at the first one instead of
 * failing every document the same way: a rejected key, a key without the role, a base URL that
 * is not the API (an HTML page, or a route the server does not have).
 */
import { isRouteNotFound } from '@kis/spec/rules';
import {
  AuthenticationError,
  HtmlResponseError,
  type KisError,
  PermissionDeniedError,
} from '../../errors.js';

/** The message to stop the run with, or undefined when the error concerns one document only. */
export function runStopping(error: KisError): string | undefined {
  const status = error.status;
  if (AuthenticationError.isInstance(error) || PermissionDeniedError.isInstance(error)) {
    return `Stopped: the server refused the API key (${error.message}); no document can be stored with it.`;
  }
  if (HtmlResponseError.isInstance(error)) return `Stopped: ${error.message}`;
  if (status !== undefined && isRouteNotFound(status, error.body)) {
    return `Stopped: the server has no ingestion route here (${error.message}); check that the base URL ends in /api.`;
  }
  return undefined;
}
