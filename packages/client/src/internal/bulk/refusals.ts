/**
 * Answers that no document of a run can get past, so the run stops at the first one instead of
 * failing every document the same way: a rejected key, a key without the role, a base URL that
 * is not the API (an HTML page, or a route the server does not have).
 */
import { isRouteNotFound } from '@kis/rules';
import {
  APIConnectionError,
  APITimeoutError,
  AuthenticationError,
  HtmlResponseError,
  type KisError,
  PermissionDeniedError,
} from '../../errors.js';

/** The message to stop the run with, or undefined when the error concerns one document only. */
export function runStopping(error: KisError): string | undefined {
  const status = error.status;
  if (AuthenticationError.isInstance(error)) {
    return `Stopped: the server rejected the API key (${error.message}); no document can be stored with it.`;
  }
  if (PermissionDeniedError.isInstance(error)) {
    return `Stopped: the API key lacks the role ingestion needs (${error.message}); no document can be stored with it.`;
  }
  if (HtmlResponseError.isInstance(error)) return `Stopped: ${error.message}`;
  if (status !== undefined && isRouteNotFound(status, error.body)) {
    return `Stopped: the server has no ingestion route here (${error.message}); check that the base URL ends in /api.`;
  }
  return undefined;
}

/** Connection failures that mean no server is there at all (as opposed to one going away). */
const NO_SERVER = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Before any document was stored: the message to stop with when the server cannot be reached at
 * all (a wrong URL or port, a server not started), instead of pausing as for an outage.
 */
export function neverReached(error: KisError): string | undefined {
  // read before the checks: the classes' guards narrow `error` structurally
  const { message } = error;
  const code = connectionCode(error);
  if (!APIConnectionError.isInstance(error) || APITimeoutError.isInstance(error)) return undefined;
  if (code === undefined || !NO_SERVER.has(code)) return undefined;
  return `Stopped: ${message} No document was stored; check the base URL and that the server is running.`;
}

/** The system error code of a connection failure (`ECONNREFUSED`...), from the error or its cause. */
function connectionCode(error: KisError): string | undefined {
  if (error.code !== undefined) return error.code;
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}
