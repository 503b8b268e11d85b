/**
 * The transport: the `fetch` that openapi-fetch calls for every operation. Around a `Sender` that
 * puts one request on the wire (fetch in browsers, undici under Node) it adds the bearer header, a
 * time-out per attempt, the caller's cancellation, retries with backoff, the retry-count header
 * and logging, and answers with a `ReadResponse`. It holds no global state: one per client, and
 * nothing of a request outlives its answer (its timer is cleared, its abort unregistered).
 */
import { APIUserAbortError, type KisError } from '../errors.js';
import type { LevelLogger } from '../logging.js';
import type { CallControl, RetryEvent } from '../request-options.js';
import { onAbort } from './abort.js';
import { type BackoffOptions, backoffDelayMs, retryAfterMs, sleep } from './backoff.js';
import { attemptFailure, errorFromResponse } from './error-parse.js';
import type { Attempted, Sender, SendInit, SentBody } from './http.js';
import { OutgoingRequest } from './outgoing-request.js';
import { ReadResponse } from './read-response.js';
import type { Redactor } from './redact.js';
import { worthRetrying, worthRetryingOnce } from './retry-table.js';

export interface TransportConfig {
  send: Sender;
  apiKey: string;
  maxRetries: number;
  timeoutMs: number;
  backoff: BackoffOptions;
  headers: Record<string, string>;
  log: LevelLogger;
  redactor: Redactor;
  random?: () => number;
}

/** openapi-fetch's `fetch`, taking the call's controls as a second argument. */
export type TransportFetch = (request: Request, control?: CallControl) => Promise<Response>;

/** Headers the sender sets itself (a length that does not match the body fails the request). */
const OWN_HEADERS = ['content-length', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade'];

/** A body as given to the client's own requests: anything but a stream, which cannot be sent twice. */
function sentBodyOf(body: OutgoingRequest['sentBody']): SentBody | null {
  if (body === null || typeof body === 'string' || body instanceof Blob) return body;
  if (body instanceof FormData || body instanceof URLSearchParams) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) {
    // a copy: the caller's view may be over a larger or a shared buffer
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength).slice();
  }
  throw new TypeError(
    'request bodies must be sent whole (a stream cannot be sent again on a retry)',
  );
}

/** A standard Request's body (from a caller's middleware), read once for every attempt. */
async function bytesOf(request: Request): Promise<Uint8Array<ArrayBuffer> | null> {
  return request.body === null ? null : new Uint8Array(await request.arrayBuffer());
}

/** One call, ready for the wire and for its retries. */
interface Prepared {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: SentBody | null;
  control: CallControl;
  signal: AbortSignal | null;
}

export function createTransport(config: TransportConfig): TransportFetch {
  const { log, redactor, send } = config;
  const auth = `Bearer ${config.apiKey}`;
  const random = config.random ?? Math.random;
  const defaultHeaders = Object.entries(config.headers).map(([k, v]) => [k.toLowerCase(), v]);

  async function prepare(request: Request, given: CallControl | undefined): Promise<Prepared> {
    const own = request instanceof OutgoingRequest;
    const headers: Record<string, string> = {};
    for (const [k, v] of defaultHeaders) headers[k as string] = v as string;
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const control = given ?? {};
    if (control.headers) {
      for (const [k, v] of Object.entries(control.headers)) headers[k.toLowerCase()] = v;
    }
    for (const h of OWN_HEADERS) delete headers[h];
    headers.authorization = auth;
    return {
      url: request.url,
      method: request.method,
      headers,
      body: own ? sentBodyOf(request.sentBody) : await bytesOf(request),
      control,
      signal: control.signal ?? (own ? request.givenSignal : request.signal),
    };
  }

  function abortError(call: Prepared, signal: AbortSignal | null | undefined): APIUserAbortError {
    const reason: unknown = signal?.reason;
    const why =
      reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
    return new APIUserAbortError(
      redactor.text(`${call.method} ${call.url} was aborted by the caller${why}.`),
    );
  }

  /** One attempt under its own time-out; its timer and abort registration end with it. */
  async function attempt(call: Prepared, timeoutMs: number): Promise<Attempted> {
    const { registry } = call.control;
    const cancel = registry?.signal ?? call.signal;
    const init: SendInit = { method: call.method, headers: call.headers, body: call.body };
    const sent = send(call.url, init);
    let timedOut = false;
    const timer =
      timeoutMs > 0 && Number.isFinite(timeoutMs)
        ? setTimeout(() => {
            timedOut = true;
            sent.abort(new Error(`timed out after ${timeoutMs} ms`));
          }, timeoutMs)
        : undefined;
    const unlink = onAbort(() => sent.abort(abortError(call, cancel)), registry, call.signal);
    try {
      // the answer counts once all of it has arrived: a body that stalls or is cut off fails
      // this attempt (retried like any other), never a later read
      const received = await sent.received;
      const response = new ReadResponse(received.body, {
        status: received.status,
        statusText: received.statusText,
        headers: received.headers,
      });
      return { response };
    } catch (err) {
      if (cancel?.aborted) return { kind: 'abort', error: abortError(call, cancel) };
      return attemptFailure(err, call.method, call.url, timeoutMs, timedOut, redactor);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      unlink();
    }
  }

  /** The wait before the next attempt, or undefined when the answer or failure is final. */
  function retryAfter(
    call: Prepared,
    result: Attempted,
    retry: number,
    maxRetries: number,
  ): RetryEvent | undefined {
    const worth = call.control.retryMode === 'unsafe' ? worthRetryingOnce : worthRetrying;
    const response = result.response;
    if (response) {
      const status = response.status;
      if (status >= 200 && status < 300) return undefined;
      if (retry >= maxRetries || !worth({ status })) return undefined;
      const delayMs =
        retryAfterMs(response.headers) ?? backoffDelayMs(retry + 1, config.backoff, random);
      return { retry: retry + 1, status, delayMs };
    }
    if (result.kind === 'abort' || retry >= maxRetries) return undefined;
    const failure = result.kind === 'timeout' ? 'timeout' : 'connection';
    if (!worth({ failure, preSend: result.preSend })) return undefined;
    return {
      retry: retry + 1,
      error: result.kind === 'timeout' ? 'timeout' : 'connection',
      delayMs: backoffDelayMs(retry + 1, config.backoff, random),
    };
  }

  /** The error of an attempt that got no answer, with how many attempts were made. */
  function finalError(call: Prepared, result: Attempted, retry: number): KisError {
    const error = result.error as KisError;
    const { control } = call;
    const unsafe = control.retryMode === 'unsafe' && !result.preSend && control.unsafeHint;
    const note = `${retry > 0 ? ` (after ${retry + 1} attempts)` : ''}${unsafe ? ` ${control.unsafeHint}` : ''}`;
    if (result.kind === 'abort' || !note) return error;
    const Ctor = error.constructor as new (
      m: string,
      i: { cause?: unknown; code?: string | undefined },
    ) => KisError;
    const cause = (error as { cause?: unknown }).cause;
    return new Ctor(error.message + note, { cause, code: error.code });
  }

  /** An HTML page is never the API's answer (a login page, a proxy, a base URL without /api). */
  async function refuseHtml(call: Prepared, response: Response): Promise<void> {
    const type = response.headers.get('content-type');
    if (type === null || !/\btext\/html\b|application\/xhtml/i.test(type)) return;
    const text = await response.text();
    throw errorFromResponse(response, text, { method: call.method, url: call.url, redactor });
  }

  function logRequest(call: Prepared, retry: number): number {
    if (!log.enabled('debug')) return 0;
    log.log('debug', `→ ${call.method} ${call.url}${retry ? ` (retry ${retry})` : ''}`, {
      headers: redactor.headers(call.headers),
    });
    return performance.now();
  }

  function logAnswer(call: Prepared, response: Response, started: number): void {
    if (started === 0) return;
    const ms = Math.round(performance.now() - started);
    log.log('debug', `← ${response.status} ${call.method} ${call.url} in ${ms} ms`, {
      requestId: response.headers.get('x-request-id') ?? undefined,
    });
  }

  function logRetry(call: Prepared, event: RetryEvent, maxRetries: number): void {
    const after =
      event.status ?? (event.error === 'timeout' ? 'a time-out' : 'a connection failure');
    log.log(
      'info',
      `retrying ${call.method} ${call.url} in ${Math.round(event.delayMs)} ms after ${after} (retry ${event.retry} of ${maxRetries})`,
    );
  }

  async function call(call: Prepared): Promise<Response> {
    const { control } = call;
    const cancel = control.registry?.signal ?? call.signal;
    const maxRetries = Math.max(0, control.maxRetries ?? config.maxRetries);
    const timeoutMs = control.timeoutMs ?? config.timeoutMs;
    for (let retry = 0; ; retry++) {
      if (cancel?.aborted) throw abortError(call, cancel);
      call.headers['x-kis-retry-count'] = String(retry);
      const started = logRequest(call, retry);
      const result = await attempt(call, timeoutMs);
      const response = result.response;
      if (response) {
        logAnswer(call, response, started);
        control.onStatus?.(response.status);
        if (response.status >= 200 && response.status < 300) await refuseHtml(call, response);
      }
      const event = retryAfter(call, result, retry, maxRetries);
      if (event === undefined) {
        if (response) return response;
        const error = finalError(call, result, retry);
        if (result.kind !== 'abort') log.log('info', error.message);
        throw error;
      }
      logRetry(call, event, maxRetries);
      control.onRetry?.(event);
      try {
        await sleep(event.delayMs, cancel ?? undefined, control.registry);
      } catch {
        throw abortError(call, cancel);
      }
    }
  }

  return async (request, control) => call(await prepare(request, control));
}
