/**
 * What the resource methods and the bulk engine share: the openapi-fetch client they call
 * through, and `call`, which gives each call its controls and turns its answer into its data or
 * the typed error named by the route actually sent.
 */
import type { Client } from 'openapi-fetch';
import { APIError, KisError } from '../errors.js';
import type { Sha256 } from '../journal.js';
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

/** The `fetch` a typed call is handed: it takes the call to the transport with its controls. */
export type CallFetch = (request: Request) => Promise<Response>;

/**
 * One operation, its route written once: `send` makes the typed openapi-fetch call with the
 * `fetch` it is handed, which takes `control` to the transport and keeps the request, so that an
 * error names the method and path actually sent (the route with its parameters filled in, the
 * variant that answered). Resolves with the data of a 2xx answer, else throws the typed error.
 * `hint` as a string is the warning of a create that is not idempotent: added after a 5xx but
 * 503, when the server may have acted.
 */
export type Call = <T>(
  send: (fetch: CallFetch) => Promise<Answer<T>>,
  control?: CallControl,
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
  /** One operation through `api`, unwrapped (see `Call`). */
  call: Call;
  /** The transport itself, for the doctor's probes (bodies no operation takes). */
  transport: TransportFetch;
  /** Which route variant each group answered on (per client). */
  routes: RouteMemory;
  /** The server's release, asked once per client. */
  release: ReleaseOf;
  log: LevelLogger;
  redactor: Redactor;
  /** The client's time-out per attempt: bulk runs pass it in their own control. */
  timeoutMs: number;
  /** The SHA-256 a journal's content hashes are computed with (`contentHash`). */
  sha256: Sha256;
}

/** A control from the caller's options plus internal settings (a copy: callers' objects stay as given). */
export function control(
  opts: RequestOptions | undefined,
  extra?: Partial<CallControl>,
): CallControl {
  return extra ? { ...opts, ...extra } : { ...opts };
}

/** How an error names its call: the method, the URL and the path under the base URL, no query. */
interface CallLabel {
  method: string;
  url: string;
  path: string;
}

function labelOf(baseUrl: string, sent: Request | undefined): CallLabel {
  if (sent === undefined) return { method: 'a call', url: baseUrl, path: '' };
  const query = sent.url.indexOf('?');
  const url = query < 0 ? sent.url : sent.url.slice(0, query);
  const path = url.startsWith(baseUrl) ? url.slice(baseUrl.length) : url;
  return { method: sent.method, url, path };
}

/** `call` for a client: its transport, and errors worded with its base URL (logged at `info`). */
export function createCall(
  baseUrl: string,
  transport: TransportFetch,
  redactor: Redactor,
  log: LevelLogger,
): Call {
  return async function call<T>(
    send: (fetch: CallFetch) => Promise<Answer<T>>,
    control?: CallControl,
    hint?: Hint | string,
  ): Promise<T> {
    let sent: Request | undefined;
    const fetch: CallFetch = (request) => {
      sent = request;
      return transport(request, control === undefined ? {} : { ...control });
    };
    let result: Answer<T>;
    try {
      result = await send(fetch);
    } catch (err) {
      const { method, url } = labelOf(baseUrl, sent);
      throw thrownBy(err, method, url, redactor);
    }
    const { response } = result;
    if (response.status >= 200 && response.status < 300 && result.error === undefined) {
      return result.data as T;
    }
    const { method, url, path } = labelOf(baseUrl, sent);
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
