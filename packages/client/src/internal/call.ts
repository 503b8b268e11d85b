/**
 * What the resource methods share: the openapi-fetch client they call through, the per-call
 * `fetch` that carries their controls to the transport, and `unwrap`, which turns an answer into
 * its data or the typed error.
 */
import type { Client } from 'openapi-fetch';
import { APIError, KisError } from '../errors.js';
import type { LevelLogger } from '../logging.js';
import type { CallControl, RequestOptions } from '../request-options.js';
import type { paths } from '../types.js';
import { errorFromResponse } from './error-parse.js';
import type { Answer } from './http.js';
import type { Redactor } from './redact.js';
import type { ReleaseOf } from './release.js';
import type { RouteMemory } from './route-variants.js';
import type { TransportFetch } from './transport.js';

/** A sentence added to the error of a failed answer, chosen from its status and body. */
export type Hint = (status: number, body: unknown) => string | undefined;

/**
 * The data of a 2xx answer, else the typed error. `path` (ids filled in) names the call in
 * messages; a function gives it once the call is over (when a route variant decided it). `hint`
 * as a string is the warning of a create that is not idempotent: added after a 5xx but 503, when
 * the server may have acted.
 */
export type Unwrap = <T>(
  pending: Promise<Answer<T>>,
  method: string,
  path: string | (() => string),
  hint?: Hint | string,
) => Promise<T>;

/** A string hint as a `Hint`: said after a 5xx other than 503 (which promises nothing was done). */
function hintOf(hint: Hint | string | undefined): Hint | undefined {
  return typeof hint === 'string'
    ? (status) => (status >= 500 && status !== 503 ? hint : undefined)
    : hint;
}

export interface CallContext {
  /** The normalized base URL (no trailing slash). */
  baseUrl: string;
  /** openapi-fetch on the client's transport (`kis.api`). */
  api: Client<paths>;
  /** The per-call `fetch` option that hands `control` to the transport. */
  via(control: CallControl): (request: Request) => Promise<Response>;
  unwrap: Unwrap;
  /** The transport itself, for the doctor's probes (bodies no operation takes). */
  transport: TransportFetch;
  /** Which route variant each group answered on (per client). */
  routes: RouteMemory;
  /** The server's release, asked once per client. */
  release: ReleaseOf;
  log: LevelLogger;
  redactor: Redactor;
}

/** A control from the caller's options plus internal settings (a copy: callers' objects stay as given). */
export function control(
  opts: RequestOptions | undefined,
  extra?: Partial<CallControl>,
): CallControl {
  return extra ? { ...opts, ...extra } : { ...opts };
}

/** `unwrap` for a client: data of a 2xx answer, else the typed error (logged at `info`). */
export function createUnwrap(baseUrl: string, redactor: Redactor, log: LevelLogger): Unwrap {
  return async function unwrap<T>(
    pending: Promise<Answer<T>>,
    method: string,
    pathOf: string | (() => string),
    hint?: Hint | string,
  ): Promise<T> {
    let result: Answer<T>;
    try {
      result = await pending;
    } catch (err) {
      throw thrownBy(
        err,
        method,
        baseUrl + (typeof pathOf === 'string' ? pathOf : pathOf()),
        redactor,
      );
    }
    const path = typeof pathOf === 'string' ? pathOf : pathOf();
    const url = baseUrl + path;
    const { response } = result;
    if (response.status >= 200 && response.status < 300 && result.error === undefined) {
      return result.data as T;
    }
    const error = errorFromResponse(response, result.error, {
      method,
      url,
      path,
      redactor,
      hint: hintOf(hint)?.(response.status, result.error),
    });
    log.log('info', error.message);
    throw error;
  };
}

/** The error to throw when a call rejected instead of answering. */
function thrownBy(err: unknown, method: string, url: string, redactor: Redactor): KisError {
  if (KisError.isInstance(err)) return err;
  if (err instanceof SyntaxError) {
    return new APIError(
      redactor.text(`${method} ${url} answered 2xx with a body that is not JSON: ${err.message}`),
      { status: 200 },
    );
  }
  return new KisError(
    redactor.text(`${method} ${url} failed: ${String((err as Error)?.message ?? err)}`),
  );
}
