/**
 * The transport: what every call goes through (as the `fetch` that openapi-fetch calls, or
 * directly on the ingestion hot path). It adds the bearer header, a per-attempt time-out, the
 * caller's AbortSignal, retries with backoff, the retry-count header and logging around a
 * `Sender` that puts the request on the wire (fetch, or node:http under Node). It holds no
 * global state: one transport per client.
 */
import { APIUserAbortError, type KisError } from '../errors.js';
import type { LevelLogger } from '../logging.js';
import { type BackoffOptions, backoffDelayMs, retryAfterMs, sleep } from './backoff.js';
import type { Redactor } from './redact.js';

/** Per-request options accepted by every resource method and workflow. */
export interface RequestOptions {
  /** Cancels the call (every attempt and every backoff wait). */
  signal?: AbortSignal | undefined;
  /** Time-out of each attempt in ms (the whole answer, body included, must arrive within it). */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt (0 disables retrying). */
  maxRetries?: number | undefined;
  /** Extra request headers (an `authorization` header here is ignored). */
  headers?: Record<string, string> | undefined;
}

/** What a retry looks like to observers (logs, bulk ingestion's throttle). */
export interface RetryEvent {
  /** 1 for the first retry. */
  retry: number;
  /** Status of the answer that caused the retry, if any. */
  status?: number | undefined;
  /** Error kind when the attempt failed without an answer. */
  error?: 'connection' | 'timeout' | undefined;
  delayMs: number;
}

/** Internal per-call controls (not part of the public option type). */
export interface CallControl extends RequestOptions {
  /**
   * `unsafe`: the request is not idempotent; retry only when the server surely did not act on it
   * (408/429/503 answers, connection refused). Default `idempotent`.
   */
  retryMode?: 'idempotent' | 'unsafe' | undefined;
  /** Sentence added to errors of an unsafe request that failed in a way that may have acted. */
  unsafeHint?: string | undefined;
  /** Called before each retry's wait. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** Called with the status of every answer (including those retried). */
  onStatus?: ((status: number) => void) | undefined;
  /**
   * Cancellation shared by many requests (bulk ingestion): attempts register their abort here
   * instead of adding a listener to one signal per request. `signal` is used for backoff waits.
   */
  registry?: AbortRegistry | undefined;
}

/** A set of aborts fired together; cheaper than one AbortSignal listener per request. */
export interface AbortRegistry {
  readonly signal: AbortSignal;
  add(abort: () => void): void;
  delete(abort: () => void): void;
}

export const CONTROL_KEY = 'kis';

/** Response headers as the client reads them (a WHATWG `Headers` is one). */
export interface HeaderReader {
  get(name: string): string | null;
  forEach(callback: (value: string, name: string) => void): void;
}

/** One answer, all of it arrived: status, headers and the body read as asked. */
export interface Received {
  status: number;
  statusText: string;
  /** A WHATWG `Headers` when the body was asked for as bytes. */
  headers: HeaderReader;
  /** The body as text, when asked for as text. */
  text?: string;
  /** The body's bytes (null for answers without a body), when asked for as bytes. */
  bytes?: ArrayBuffer | null;
}

/** What a sender is given: a `fetch` init whose body is a string, bytes, a form or a blob. */
export interface SendInit {
  method: string;
  headers: Headers | Record<string, string>;
  body: RequestInit['body'];
  signal: AbortSignal;
}

/**
 * Sends one request and reads its whole answer (as text, or as bytes), following redirects;
 * rejects on a connection failure or when `signal` aborts (then with the signal's reason or an
 * AbortError). The core sends with `fetch`; `@kis/client` under Node sends with node:http(s).
 */
export type Sender = (url: string, init: SendInit, as: 'text' | 'bytes') => Promise<Received>;

/** A sender on a `fetch` function. */
export function fetchSender(fetch: typeof globalThis.fetch): Sender {
  return async (url, init, as) => {
    const response = await fetch(url, { ...init, redirect: 'follow' });
    const { status, statusText, headers } = response;
    if (as === 'text') return { status, statusText, headers, text: await response.text() };
    const bytes = response.body === null ? null : await response.arrayBuffer();
    return { status, statusText, headers, bytes };
  };
}

/** Statuses whose answers have no body (a Response refuses one for them). */
export const isNullBodyStatus = (status: number): boolean =>
  status === 204 || status === 205 || status === 304;

/** A WHATWG Response for openapi-fetch, from an answer read as bytes. */
export function toResponse(received: Received): Response {
  const status = received.status;
  return new Response(isNullBodyStatus(status) ? null : received.bytes, {
    status,
    statusText: received.statusText,
    headers: received.headers as Headers,
  });
}

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

/**
 * A cheap stand-in for `Request` used by the client's internal openapi-fetch instance: it keeps
 * the URL and init as given, so the transport calls `fetch(url, init)` directly without building
 * (and then re-reading) a WHATWG Request for every call.
 */
export class LightRequest {
  readonly url: string;
  readonly method: string;
  /** A Headers object (from openapi-fetch) or a plain record with lower-case names. */
  readonly headers: Headers | Record<string, string>;
  readonly init: RequestInit & { [CONTROL_KEY]?: CallControl };
  readonly signal: AbortSignal | null;
  constructor(url: string, init: RequestInit & { [CONTROL_KEY]?: CallControl }) {
    this.url = url;
    this.init = init;
    this.method = init.method ?? 'GET';
    this.headers = (init.headers ?? {}) as Headers | Record<string, string>;
    this.signal = init.signal ?? null;
  }
}

const RETRYABLE_UNSAFE = new Set([408, 429, 503]);
/**
 * Requests per shared signal: at most Node's default listener limit (10), so a fetch that adds a
 * listener per request to the signal it is given never sets off the max-listeners warning.
 */
const BUCKET_MEMBERS = 10;
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export interface Attempted {
  received?: Received;
  error?: KisError;
  kind?: 'connection' | 'timeout' | 'abort';
  preSend?: boolean;
}

interface Bucket {
  controller: AbortController;
  timedOut: boolean;
  /** Attempts using it now. */
  pending: number;
  /** Attempts that used it (capped at BUCKET_MEMBERS). */
  members: number;
  /** No new attempt joins after this time (ms since epoch). */
  closesAt: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  scope: AbortRegistry | undefined;
  abort: () => void;
}

/**
 * openapi-fetch's `fetch` option: the answer as a WHATWG Response. `control` (passed by the
 * client's per-call fetch; openapi-fetch itself passes nothing there, as the client sets no
 * `requestInitExt`) takes precedence over one carried by the request.
 */
export type TransportFetch = (
  input: Request | LightRequest,
  control?: CallControl,
) => Promise<Response>;

export interface Transport {
  fetch: TransportFetch;
  /** The same call, the answer read as text (the bulk hot path: no Response is built). */
  exchange(input: LightRequest): Promise<Received & { text: string }>;
}

/** Create the transport: auth, time-outs, retries and logging around the sender. */
export function createTransport(config: TransportConfig): Transport {
  const { log, redactor } = config;
  const send = config.send;
  const auth = `Bearer ${config.apiKey}`;
  const random = config.random ?? Math.random;
  const defaultHeaders = Object.entries(config.headers);

  // Requests without a caller signal share one AbortController per short window of start times
  // (per cancellation scope and time-out): creating an AbortSignal per request is a large part of
  // a request's client-side CPU in Node, and fetch follows a shared signal just as well.
  const defaultScope: object = {};
  const open = new WeakMap<object, Map<number, Bucket>>();

  function acquire(scope: AbortRegistry | undefined, timeoutMs: number): Bucket {
    const key = scope ?? defaultScope;
    let byTimeout = open.get(key);
    if (!byTimeout) {
      byTimeout = new Map();
      open.set(key, byTimeout);
    }
    const now = Date.now();
    const current = byTimeout.get(timeoutMs);
    if (
      current &&
      now < current.closesAt &&
      current.members < BUCKET_MEMBERS &&
      !current.controller.signal.aborted
    ) {
      current.pending++;
      current.members++;
      return current;
    }
    if (current && current.pending === 0) dispose(current);
    const timed = timeoutMs > 0 && Number.isFinite(timeoutMs);
    const window = timed ? Math.min(100, Math.max(1, timeoutMs / 4)) : 100;
    const bucket: Bucket = {
      controller: new AbortController(),
      timedOut: false,
      pending: 1,
      members: 1,
      closesAt: now + window,
      timer: undefined,
      scope,
      abort: () => bucket.controller.abort(),
    };
    if (timed) {
      // fires between timeoutMs and timeoutMs + window after each member started
      bucket.timer = setTimeout(() => {
        bucket.timedOut = true;
        bucket.controller.abort();
        dispose(bucket);
      }, timeoutMs + window);
      (bucket.timer as { unref?: () => void }).unref?.();
    }
    scope?.add(bucket.abort);
    byTimeout.set(timeoutMs, bucket);
    return bucket;
  }

  function release(bucket: Bucket): void {
    if (
      --bucket.pending === 0 &&
      (bucket.members >= BUCKET_MEMBERS || Date.now() >= bucket.closesAt)
    ) {
      dispose(bucket);
    }
  }

  function dispose(bucket: Bucket): void {
    if (bucket.timer !== undefined) clearTimeout(bucket.timer);
    bucket.timer = undefined;
    bucket.scope?.delete(bucket.abort);
    const byTimeout = open.get(bucket.scope ?? defaultScope);
    for (const [k, b] of byTimeout ?? []) if (b === bucket) byTimeout?.delete(k);
  }

  async function attempt(
    url: string,
    init: SendInit,
    timeoutMs: number,
    userSignal: AbortSignal | null | undefined,
    registry: AbortRegistry | undefined,
    as: 'text' | 'bytes',
  ): Promise<Attempted> {
    // a caller's own signal gets its own controller; everything else shares a bucket
    const own = userSignal && !registry ? new AbortController() : undefined;
    const bucket = own ? undefined : acquire(registry, timeoutMs);
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onUserAbort = own ? () => own.abort() : undefined;
    if (own && onUserAbort) {
      if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
        timer = setTimeout(() => {
          timedOut = true;
          own.abort();
        }, timeoutMs);
      }
      userSignal?.addEventListener('abort', onUserAbort, { once: true });
      init.signal = own.signal;
    } else {
      init.signal = (bucket as Bucket).controller.signal;
    }
    try {
      // The answer counts once all of it has arrived: the sender reads the body under the same
      // time-out and abort signal, so a body that stalls or is cut off is a time-out or a
      // connection failure of this attempt (retried like any other), never a hang or an
      // untyped error after the retry loop.
      return { received: await send(url, init, as) };
    } catch (err) {
      if (userSignal?.aborted) {
        return { kind: 'abort', error: abortError(init.method, url, userSignal) };
      }
      // failures are rare: their classification loads with error formatting
      const { attemptFailure } = await import('./error-parse.js');
      return attemptFailure(
        err,
        init.method,
        url,
        timeoutMs,
        timedOut || !!bucket?.timedOut,
        redactor,
      );
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      if (onUserAbort) userSignal?.removeEventListener('abort', onUserAbort);
      if (bucket) release(bucket);
    }
  }

  function abortError(method: string, url: string, signal: AbortSignal): APIUserAbortError {
    const reason = signal.reason;
    const why =
      reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
    return new APIUserAbortError(
      redactor.text(`${method} ${url} was aborted by the caller${why}.`),
    );
  }

  async function call(
    input: Request | LightRequest,
    as: 'text' | 'bytes',
    given?: CallControl,
  ): Promise<Received> {
    const url = input.url;
    const method = input.method;
    let control: CallControl | undefined = given;
    let body: BodyInit | null | undefined;
    let headers: Headers | Record<string, string>;
    if (input instanceof LightRequest) {
      // built for this call only (by openapi-fetch or the client): safe to extend in place
      headers = input.headers;
      control ??= input.init[CONTROL_KEY];
      body = input.init.body;
    } else {
      headers = new Headers(input.headers);
      control ??= (input as unknown as Record<string, CallControl | undefined>)[CONTROL_KEY];
      // buffered once, so every attempt can send it again
      body = input.body === null ? undefined : await input.arrayBuffer();
    }
    // a Headers (from openapi-fetch) or a plain record (built by the client), told apart without
    // touching the global `Headers`: in Node its first use loads Node's own copy of undici
    // (~20 ms), which calls that carry plain records (a kis.sync's listing) need not pay
    const isHeaders = Object.getPrototypeOf(headers) !== Object.prototype;
    const set = isHeaders
      ? (k: string, v: string) => (headers as Headers).set(k, v)
      : (k: string, v: string) => {
          (headers as Record<string, string>)[k.toLowerCase()] = v;
        };
    const has = (k: string) =>
      isHeaders ? (headers as Headers).has(k) : k.toLowerCase() in headers;
    for (const [k, v] of defaultHeaders) if (!has(k)) set(k, v);
    if (control?.headers) {
      for (const [k, v] of Object.entries(control.headers)) set(k, v);
    }
    set('authorization', auth);
    const registry = control?.registry;
    const userSignal = registry?.signal ?? control?.signal ?? input.signal;
    const maxRetries = Math.max(0, control?.maxRetries ?? config.maxRetries);
    const timeoutMs = control?.timeoutMs ?? config.timeoutMs;
    const unsafe = control?.retryMode === 'unsafe';
    const init: SendInit = {
      method,
      headers,
      body: body ?? null,
      signal: undefined as unknown as AbortSignal, // set per attempt
    };
    const debug = log.enabled('debug');

    for (let retry = 0; ; retry++) {
      if (userSignal?.aborted) throw abortError(method, url, userSignal);
      set('x-kis-retry-count', String(retry));
      const started = debug ? performance.now() : 0;
      if (debug) {
        log.log('debug', `→ ${method} ${url}${retry ? ` (retry ${retry})` : ''}`, {
          headers: redactor.headers(headers),
        });
      }
      const result = await attempt(url, init, timeoutMs, userSignal, registry, as);
      const response = result.received;
      let event: RetryEvent;
      if (response) {
        const status = response.status;
        if (debug) {
          log.log(
            'debug',
            `← ${status} ${method} ${url} in ${Math.round(performance.now() - started)} ms`,
            {
              requestId: response.headers.get('x-request-id') ?? undefined,
            },
          );
        }
        control?.onStatus?.(status);
        const ok = status < 300 && status >= 200;
        if (ok) {
          const ct = response.headers.get('content-type');
          if (ct !== null && /\btext\/html\b|application\/xhtml/i.test(ct)) {
            // an HTML page is never the API's answer (a login page, a proxy, a missing /api)
            const { errorFromResponse } = await import('./error-parse.js');
            const text = response.text ?? new TextDecoder().decode(response.bytes ?? undefined);
            throw errorFromResponse(response, text, { method, url, redactor });
          }
        }
        if (
          ok ||
          retry >= maxRetries ||
          !(unsafe ? RETRYABLE_UNSAFE.has(status) : isRetryableStatus(status))
        ) {
          return response;
        }
        const delayMs =
          retryAfterMs(response.headers) ?? backoffDelayMs(retry + 1, config.backoff, random);
        event = { retry: retry + 1, status, delayMs };
      } else {
        const error = result.error as KisError;
        if (result.kind === 'abort') throw error;
        const canRetry = retry < maxRetries && (!unsafe || result.preSend === true);
        if (!canRetry) {
          const note = `${retry > 0 ? ` (after ${retry + 1} attempts)` : ''}${unsafe && !result.preSend && control?.unsafeHint ? ` ${control.unsafeHint}` : ''}`;
          if (note) {
            const Ctor = error.constructor as new (
              m: string,
              i: { cause?: unknown; code?: string | undefined },
            ) => KisError;
            const cause = (error as { cause?: unknown }).cause;
            const wrapped = new Ctor(error.message + note, { cause, code: error.code });
            log.log('info', wrapped.message);
            throw wrapped;
          }
          log.log('info', error.message);
          throw error;
        }
        event = {
          retry: retry + 1,
          error: result.kind === 'timeout' ? 'timeout' : 'connection',
          delayMs: backoffDelayMs(retry + 1, config.backoff, random),
        };
      }
      const after =
        event.status ?? (event.error === 'timeout' ? 'a time-out' : 'a connection failure');
      log.log(
        'info',
        `retrying ${method} ${url} in ${Math.round(event.delayMs)} ms after ${after} (retry ${event.retry} of ${maxRetries})`,
      );
      control?.onRetry?.(event);
      try {
        await sleep(event.delayMs, userSignal ?? undefined, registry);
      } catch {
        throw abortError(method, url, userSignal as AbortSignal);
      }
    }
  }

  return {
    fetch: async (input, control) => toResponse(await call(input, 'bytes', control)),
    exchange: (input) => call(input, 'text') as Promise<Received & { text: string }>,
  };
}
