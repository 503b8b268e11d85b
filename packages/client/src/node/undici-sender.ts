/**
 * The Node sender: undici (the HTTP engine under Node's own fetch, kept by Node's team) through
 * its documented dispatcher API: a keep-alive `Agent`, undici's redirect interceptor (it follows
 * redirects as fetch does and drops credentials when one leaves the origin), and a dispatch
 * handler that collects each answer. No web streams, no AbortSignal per request: the handler's
 * controller aborts it. About a third of the CPU per call of Node's fetch, which bulk ingestion
 * pays per document. Compressed answers are decoded with node:zlib, as fetch would decode them.
 */
import { STATUS_CODES } from 'node:http';
// undici, pinned to 7.30.x: 7.x runs on Node 20 (8.x needs Node 22)
import type { Agent, Dispatcher } from 'undici';
import type { Received, Sender, Sent } from '../internal/http.js';
import { headerPairs, type RawHeaders } from './answer-headers.js';
import { decodeBody } from './decode-body.js';
import { type EncodedBody, encodeBody, plainBody } from './encode-body.js';

/** Most redirects followed for one request, as fetch does. */
const MAX_REDIRECTS = 20;

export interface UndiciSenderOptions {
  /**
   * The dispatcher to send with (an undici `Agent`, `Pool`, `ProxyAgent`…), used with its own
   * time-outs and TLS options; it is the caller's to close. Default: an `Agent` of the sender's
   * own, without undici's time-outs (the transport's apply).
   */
  dispatcher?: Dispatcher | undefined;
  /** Connection options of the sender's own `Agent` (TLS: `ca`, `cert`, `key`, `servername`…). */
  connect?: Agent.Options['connect'] | undefined;
}

const EMPTY = Buffer.alloc(0);

/** Collects one answer for a dispatch, and aborts it on demand; settles once. */
class Collector implements Dispatcher.DispatchHandler {
  #status = 0;
  #statusText = '';
  #headers: RawHeaders = {};
  #chunks: Buffer[] = [];
  #controller: Dispatcher.DispatchController | undefined;
  #settled = false;

  constructor(
    private readonly method: string,
    private readonly resolve: (received: Received) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  /** Whether it was aborted (or settled) before its request was dispatched. */
  get aborted(): boolean {
    return this.#settled;
  }

  abort(reason: Error): void {
    if (this.#settled) return;
    // on the wire, undici closes the connection; still queued, onRequestStart fails it alone
    this.#controller?.abort(reason);
    this.#fail(reason);
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#chunks = [];
    this.reject(error);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.#settled) throw new DOMException('This operation was aborted', 'AbortError');
    this.#controller = controller;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: RawHeaders,
    statusMessage?: string,
  ): void {
    this.#status = statusCode;
    this.#statusText = statusMessage || STATUS_CODES[statusCode] || '';
    this.#headers = headers;
    this.#chunks = [];
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.#settled) return;
    const chunks = this.#chunks;
    const raw =
      chunks.length === 0 ? EMPTY : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    let body: Uint8Array<ArrayBuffer> | null;
    try {
      const coding = this.#headers['content-encoding'];
      body = decodeBody(Array.isArray(coding) ? coding.join(',') : coding, raw as Buffer);
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#settled = true;
    this.#chunks = [];
    this.resolve({
      status: this.#status,
      statusText: this.#statusText,
      headers: headerPairs(this.#headers),
      body: this.method === 'HEAD' || body === null || body.length === 0 ? null : body,
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#fail(error);
  }
}

type Undici = typeof import('undici');

let undici: Undici | undefined;
let loading: Promise<Undici> | undefined;

/**
 * undici (about 110 modules, 150 ms on a small machine) loads with the first request, so a
 * process that sends nothing (`kis --version`, a dry run) does not pay for it.
 */
function loadUndici(): Promise<Undici> {
  loading ??= import('undici').then((module) => {
    undici = module;
    return module;
  });
  return loading;
}

/** Create a sender on undici (one per client: its dispatcher holds its connections). */
export function createUndiciSender(options: UndiciSenderOptions = {}): Sender {
  let dispatcher: Dispatcher | undefined;
  const dispatcherOf = (u: Undici): Dispatcher => {
    if (dispatcher === undefined) {
      const base =
        options.dispatcher ??
        new u.Agent({ connect: options.connect, headersTimeout: 0, bodyTimeout: 0 });
      dispatcher = base.compose(u.interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
    }
    return dispatcher;
  };
  let lastUrl = '';
  let last: URL | undefined;

  return (target, init): Sent => {
    // the bulk path sends to one URL over and over
    if (target !== lastUrl || last === undefined) {
      last = new URL(target);
      lastUrl = target;
    }
    const url = last;
    const headers: Record<string, string> = {
      'accept-encoding': 'gzip, deflate, br',
      ...init.headers,
    };
    const dispatchOn = (to: Dispatcher, collector: Collector, encoded: EncodedBody) => {
      if (collector.aborted) return;
      if (encoded.type !== undefined) headers['content-type'] ??= encoded.type;
      to.dispatch(
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method: init.method as Dispatcher.HttpMethod,
          headers,
          body: encoded.data,
        },
        collector,
      );
    };
    const dispatchWith = (collector: Collector, encoded: EncodedBody) => {
      if (undici !== undefined) return dispatchOn(dispatcherOf(undici), collector, encoded);
      loadUndici().then(
        (u) => dispatchOn(dispatcherOf(u), collector, encoded),
        (error: unknown) =>
          collector.abort(error instanceof Error ? error : new Error(String(error))),
      );
    };
    let collector: Collector | undefined;
    const received = new Promise<Received>((resolve, reject) => {
      const c = new Collector(init.method, resolve, reject);
      collector = c;
      // the hot path (a JSON string) dispatches at once; forms and blobs are encoded first
      const plain = plainBody(init.body);
      if (plain !== undefined) dispatchWith(c, plain);
      else {
        encodeBody(init.body as Blob | FormData | URLSearchParams).then(
          (encoded) => dispatchWith(c, encoded),
          (error: unknown) => c.abort(error instanceof Error ? error : new Error(String(error))),
        );
      }
    });
    return { received, abort: (reason) => collector?.abort(reason) };
  };
}
