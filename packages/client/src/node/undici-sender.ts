/**
 * The Node sender: requests through an undici dispatcher (an `Agent`: a keep-alive connection pool
 * per origin), each answer read into memory by a handler of this module, without the web streams,
 * Headers and Response objects of `fetch` or the body stream of undici's `request()`. It behaves
 * as `fetch` does for the client: redirects are followed (credentials dropped when one leaves the
 * origin, a POST turned into a GET by 301/302/303), gzip/deflate/br answers are decoded, forms and
 * blobs are encoded as `fetch` encodes them, and the signal aborts the request at any point, body
 * included. Time-outs are the transport's: it aborts through that signal.
 */
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { promisify } from 'node:util';
import type zlibModule from 'node:zlib';
// undici, pinned to 7.30.x: the HTTP/1.1 engine under Node's own fetch, kept by Node's team; 7.x runs on Node 20 (8.x needs Node 22)
import type { buildConnector, Dispatcher } from 'undici';
import {
  type HeaderReader,
  isNullBodyStatus,
  type Received,
  type Sender,
  type SendInit,
} from '../internal/transport.js';

/** What the sender takes from undici: its `Agent` and connector. */
type UndiciParts = Pick<typeof import('undici'), 'Agent' | 'buildConnector'>;

/**
 * undici's `Agent` and connector, loaded on the first request: a program that never sends
 * (`kis --help`) should not pay for them. They are imported from their own modules rather than
 * the package's index, which also loads `fetch`, WebSocket, EventSource, caches, mocks and every
 * interceptor: ~30 ms to load instead of ~90 ms, in a CLI command that sends one request. The
 * pinned version (7.30.x) has no `exports` map, so these paths are the package's own layout (a
 * test checks they are the classes the index exports).
 */
let loading: Promise<UndiciParts> | undefined;
const loadUndici = (): Promise<UndiciParts> => {
  loading ??= Promise.all([
    import('undici/lib/dispatcher/agent.js'),
    import('undici/lib/core/connect.js'),
  ]).then(([agent, connect]) => ({ Agent: agent.default, buildConnector: connect.default }));
  return loading;
};

// Redirects are followed here, not by undici's redirect interceptor: that one follows 300, keeps
// the content-* headers when a 301/302 turns a POST into a GET, hands back the last 3xx answer
// when the limit is reached, and fails a redirect to the same URL at once; fetch does none of it.
const MAX_REDIRECTS = 20;
const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** Headers describing a request body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
];
/** Credentials dropped when a redirect leaves the origin (as fetch does). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
/**
 * Headers undici sets itself, dropped from the caller's: the body's length (one that does not
 * match the body fails the request) and the connection's own (refused by undici, forbidden by
 * fetch).
 */
const OWN_HEADERS = [
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'expect',
];

// Answers are decoded here, not by undici's decompress interceptor (experimental in 7.x, with a
// process warning): that one leaves error answers encoded, knows only zlib-wrapped deflate and
// fails a body cut short of its trailer, where fetch reads raw deflate and decodes what is there.
type Decoders = Record<string, (b: Buffer) => Promise<Buffer>>;
let decoders: Decoders | undefined;

/** The decoders by content coding, made on the first encoded answer (node:zlib loads then). */
function decodersOf(): Decoders {
  if (decoders !== undefined) return decoders;
  const zlib = createRequire(import.meta.url)('node:zlib') as typeof zlibModule;
  const ZLIB = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const BROTLI = {
    flush: zlib.constants.BROTLI_OPERATION_FLUSH,
    finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
  };
  const gunzip = promisify<zlibModule.InputType, zlibModule.ZlibOptions, Buffer>(zlib.gunzip);
  const inflate = promisify<zlibModule.InputType, zlibModule.ZlibOptions, Buffer>(zlib.inflate);
  const inflateRaw = promisify<zlibModule.InputType, zlibModule.ZlibOptions, Buffer>(
    zlib.inflateRaw,
  );
  const brotli = promisify<zlibModule.InputType, zlibModule.BrotliOptions, Buffer>(
    zlib.brotliDecompress,
  );
  decoders = {
    gzip: (b) => gunzip(b, ZLIB),
    'x-gzip': (b) => gunzip(b, ZLIB),
    br: (b) => brotli(b, BROTLI),
    // fetch accepts zlib-wrapped and raw deflate alike
    deflate: (b) => inflate(b, ZLIB).catch(() => inflateRaw(b, ZLIB)),
  };
  return decoders;
}

/** Response headers as undici parses them: lower-case names, repeated ones in an array. */
type RawHeaders = Record<string, string | string[] | undefined>;

/** Response headers read like `Headers`. */
class RawHeaderReader implements HeaderReader {
  readonly #raw: RawHeaders;
  constructor(raw: RawHeaders) {
    this.#raw = raw;
  }
  get(name: string): string | null {
    const v = this.#raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, v] of Object.entries(this.#raw)) {
      if (v !== undefined) callback(Array.isArray(v) ? v.join(', ') : v, name);
    }
  }
}

function toHeaders(raw: RawHeaders): Headers {
  const headers = new Headers();
  for (const [name, v] of Object.entries(raw)) {
    if (Array.isArray(v)) for (const one of v) headers.append(name, one);
    else if (v !== undefined) headers.append(name, v);
  }
  return headers;
}

function plainHeaders(h: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  // a plain record is told apart without touching the global `Headers` (see transport.ts)
  if (Object.getPrototypeOf(h) === Object.prototype) {
    const record = h as Record<string, string>;
    for (const k of Object.keys(record)) out[k.toLowerCase()] = record[k] as string;
  } else {
    (h as Headers).forEach((v, k) => {
      out[k] = v;
    });
  }
  return out;
}

interface Encoded {
  data: string | Uint8Array | null;
  /** The content type `fetch` would give the body, if any. */
  type?: string | undefined;
}

/** A string, bytes or nothing as they are sent (undefined: a body that must be encoded). */
function plainBody(body: SendInit['body']): Encoded | undefined {
  if (body === null || body === undefined) return { data: null };
  if (typeof body === 'string') return { data: body, type: 'text/plain;charset=UTF-8' };
  if (body instanceof Uint8Array) return { data: body };
  if (body instanceof ArrayBuffer) return { data: new Uint8Array(body) };
  if (ArrayBuffer.isView(body)) {
    return { data: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) };
  }
  return undefined;
}

/**
 * FormData, Blob, URLSearchParams, streams: encoded exactly as fetch would send them (undici's
 * own FormData support knows only its own FormData class, not the one global in Node 20).
 */
async function encodeBody(body: SendInit['body']): Promise<Encoded> {
  const encoded = new Response(body);
  return {
    data: new Uint8Array(await encoded.arrayBuffer()),
    type: encoded.headers.get('content-type') ?? undefined,
  };
}

/**
 * Abort callbacks per signal, behind one listener each: the client shares a signal among the
 * requests of a short time window, and one listener per request on it would cost more and set
 * off Node's max-listeners warning.
 */
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

function onAbortOf(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = watchers.get(signal);
  if (callbacks === undefined) {
    const set = new Set<() => void>();
    callbacks = set;
    watchers.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        for (const f of set) f();
        set.clear();
      },
      { once: true },
    );
  }
  const set = callbacks;
  set.add(callback);
  return () => set.delete(callback);
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException('This operation was aborted', 'AbortError');
}

/** One answer, all of it arrived, its body as it came (still encoded). */
interface Raw {
  status: number;
  statusText: string;
  headers: RawHeaders;
  body: Buffer;
}

const EMPTY = Buffer.alloc(0);

/** Collects one answer for a dispatch and settles its promise once. */
class Collector implements Dispatcher.DispatchHandler {
  #status = 0;
  #statusText = '';
  #headers: RawHeaders = {};
  #chunks: Buffer[] = [];
  #controller: Dispatcher.DispatchController | undefined;
  #settled = false;
  #unwatch: (() => void) | undefined;
  readonly #resolve: (raw: Raw) => void;
  readonly #reject: (err: unknown) => void;

  constructor(resolve: (raw: Raw) => void, reject: (err: unknown) => void, signal: AbortSignal) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#unwatch = onAbortOf(signal, () => this.#abort(abortReason(signal)));
  }

  #abort(reason: Error): void {
    if (this.#settled) return;
    // on the wire: undici closes the connection (the answer would arrive on it later); still
    // queued: the request is failed in onRequestStart, when its turn comes, keeping the connection
    this.#controller?.abort(reason);
    this.#finish(reason);
  }

  #finish(err: unknown, raw?: Raw): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#unwatch?.();
    this.#unwatch = undefined;
    if (raw) this.#resolve(raw);
    else this.#reject(err);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // aborted while queued: throwing here fails this request alone, before it is written
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
    this.#statusText = statusMessage ?? '';
    this.#headers = headers;
    this.#chunks = [];
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    const chunks = this.#chunks;
    const body =
      chunks.length === 1
        ? (chunks[0] as Buffer)
        : chunks.length === 0
          ? EMPTY
          : Buffer.concat(chunks);
    this.#finish(undefined, {
      status: this.#status,
      statusText: this.#statusText,
      headers: this.#headers,
      body,
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.#finish(err);
  }
}

/** A peer closing a kept-alive connection this soon after its answer closes after every answer. */
const PEER_CLOSE_MS = 100;
/** How long requests then ask for `Connection: close`, before keep-alive is tried again. */
const NO_REUSE_MS = 30_000;
/** A connection that got at most this many reads before such a close served about one answer. */
const SHORT_LIVED_READS = 2;
/** Short-lived connections closed so, in a row, before requests stop reusing connections. */
const CLOSES_IN_A_ROW = 2;

/**
 * Watches the connections a connector opens for a peer that closes them right after an answer
 * without saying `Connection: close`, and returns whether requests should ask for
 * `Connection: close` now.
 *
 * undici reuses a connection only a loop turn after its last answer (a close already sent is read
 * by then), but a close that comes a little later (a proxy, a slow network) meets the next request
 * on the dying connection, where it fails or is half-processed and must be sent again. So when a
 * peer closes connections within 100 ms of their first answer, twice in a row, it is taken to
 * close after every answer: requests then say `Connection: close` for 30 s instead of racing the
 * peer's close on each request. A reset of a connection that served many answers is a fault, not
 * that pattern, and breaks the streak (a server resetting 2 % of calls keeps keep-alive). Only the
 * peer's close counts (its FIN, or a reset): undici's own (an aborted request, an idle time-out,
 * an answer with `Connection: close`) destroys the socket without either.
 */
function peerCloseWatch(
  connect: buildConnector.connector,
): [buildConnector.connector, () => boolean] {
  let noReuseUntil = 0;
  let inARow = 0;
  const watch = (socket: Socket) => {
    let readAt = 0;
    let reads = 0;
    const closedByPeer = () => {
      const now = performance.now();
      if (now - readAt >= PEER_CLOSE_MS) return;
      inARow = reads <= SHORT_LIVED_READS ? inARow + 1 : 0;
      if (inARow >= CLOSES_IN_A_ROW) noReuseUntil = now + NO_REUSE_MS;
    };
    // a second 'readable' listener beside undici's: it reads nothing, the socket stays paused
    socket.on('readable', () => {
      readAt = performance.now();
      reads++;
    });
    socket.once('end', closedByPeer);
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET') closedByPeer();
    });
  };
  const watched: buildConnector.connector = (options, callback) => {
    connect(options, (...args) => {
      if (args[1]) watch(args[1]);
      callback(...args);
    });
  };
  return [watched, () => performance.now() < noReuseUntil];
}

export interface UndiciSenderOptions {
  /**
   * The dispatcher to send with (an undici `Agent`, `Pool`, `ProxyAgent`…), used as it is: its
   * own time-outs and TLS options apply, and it is the caller's to close. Default: an `Agent` of
   * this sender's own, without undici's time-outs (the transport's apply).
   */
  dispatcher?: Dispatcher | undefined;
  /** Connection options of the sender's own `Agent` (TLS: `ca`, `cert`, `key`, `servername`…). */
  connect?: buildConnector.BuildOptions | undefined;
}

/** Create a sender on undici (one per client: its dispatcher holds its connections). */
export function createUndiciSender(options: UndiciSenderOptions = {}): Sender {
  let dispatcher = options.dispatcher;
  /** Whether requests ask for `Connection: close` now (see peerCloseWatch). */
  let closeNow: () => boolean = () => false;
  let opening: Promise<Dispatcher> | undefined;
  const open = async (): Promise<Dispatcher> => {
    const { Agent, buildConnector } = await loadUndici();
    const [connect, close] = peerCloseWatch(buildConnector(options.connect ?? {}));
    closeNow = close;
    dispatcher = new Agent({ connect, headersTimeout: 0, bodyTimeout: 0 });
    return dispatcher;
  };

  let lastUrl = '';
  let lastParsed: URL | undefined;
  let lastOrigin = '';
  let lastPath = '';
  const parse = (url: string): URL => {
    // the bulk path sends to one URL over and over
    if (url !== lastUrl || lastParsed === undefined) {
      lastParsed = new URL(url);
      lastUrl = url;
      lastOrigin = lastParsed.origin;
      lastPath = lastParsed.pathname + lastParsed.search;
    }
    return lastParsed;
  };

  function once(
    to: Dispatcher,
    url: URL,
    method: string,
    headers: Record<string, string>,
    data: string | Uint8Array | null,
    signal: AbortSignal,
  ): Promise<Raw> {
    return new Promise<Raw>((resolve, reject) => {
      if (signal.aborted) {
        reject(abortReason(signal));
        return;
      }
      const same = url === lastParsed;
      to.dispatch(
        {
          origin: same ? lastOrigin : url.origin,
          path: same ? lastPath : url.pathname + url.search,
          method,
          headers,
          body: data,
          reset: closeNow(),
        },
        new Collector(resolve, reject, signal),
      );
    });
  }

  async function decode(coding: string, body: Buffer): Promise<Buffer> {
    // applied in the order listed, so undone last to first; as fetch does, a body with a coding
    // it does not know is left as it came
    const known = decodersOf();
    const steps = [];
    for (const c of coding.toLowerCase().split(',').reverse()) {
      const decoder = known[c.trim()];
      if (decoder === undefined) return body;
      steps.push(decoder);
    }
    let out = body;
    for (const decoder of steps) out = await decoder(out);
    return out;
  }

  return async function sendUndici(target: string, init: SendInit, as): Promise<Received> {
    let url = parse(target);
    let method = init.method.toUpperCase();
    const headers = plainHeaders(init.headers);
    // the hot path (a JSON string) waits for nothing but the answer
    let { data, type } = plainBody(init.body) ?? (await encodeBody(init.body));
    if (type !== undefined && headers['content-type'] === undefined) headers['content-type'] = type;
    for (const h of OWN_HEADERS) if (headers[h] !== undefined) delete headers[h];
    headers.accept ??= '*/*';
    headers['accept-encoding'] ??= 'gzip, deflate, br';
    headers['user-agent'] ??= 'node';
    if (dispatcher === undefined) {
      opening ??= open();
      await opening;
    }
    const to = dispatcher as Dispatcher;
    for (let hops = 0; ; hops++) {
      const res = await once(to, url, method, headers, data, init.signal);
      const status = res.status;
      const location = res.headers.location;
      if (REDIRECT.has(status) && typeof location === 'string') {
        if (hops >= MAX_REDIRECTS) throw new TypeError(`More than ${MAX_REDIRECTS} redirects`);
        const next = new URL(location, url);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new TypeError(`Redirect to a URL that is not http(s): ${next.protocol}`);
        }
        if (
          status === 303 ? method !== 'GET' && method !== 'HEAD' : status < 303 && method === 'POST'
        ) {
          method = 'GET';
          data = null;
          for (const h of BODY_HEADERS) delete headers[h];
        }
        if (next.origin !== url.origin) for (const h of CREDENTIAL_HEADERS) delete headers[h];
        url = next;
        continue;
      }
      const raw = res.headers['content-encoding'];
      const coding = Array.isArray(raw) ? raw.join(',') : raw;
      const decoded = coding && res.body.length > 0 ? await decode(coding, res.body) : res.body;
      const answer: Received = {
        status,
        statusText: res.statusText,
        headers: as === 'text' ? new RawHeaderReader(res.headers) : toHeaders(res.headers),
      };
      if (as === 'text') {
        // UTF-8, a byte-order mark dropped, as Response.text() reads it
        const bom = decoded[0] === 0xef && decoded[1] === 0xbb && decoded[2] === 0xbf ? 3 : 0;
        answer.text = decoded.toString('utf8', bom);
      } else if (isNullBodyStatus(status) || method === 'HEAD') {
        answer.bytes = null;
      } else {
        const copy = new Uint8Array(decoded.byteLength);
        copy.set(decoded);
        answer.bytes = copy.buffer;
      }
      return answer;
    }
  };
}
