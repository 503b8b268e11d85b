/**
 * The Node sender: requests over node:http(s) with a keep-alive agent per client, answers read
 * into memory without building WHATWG Request/Response objects. On a fast server this costs a
 * fraction of the CPU of Node's `fetch` (undici), whose per-request web streams, Headers and
 * AbortSignal handling dominate a small JSON call. It behaves as `fetch` does for the client:
 * redirects are followed (the `authorization` header is dropped when one leaves the origin),
 * gzip/deflate/br answers are decoded, forms and blobs are encoded as `fetch` encodes them, and
 * the signal aborts the request at any point, body included.
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import {
  type HeaderReader,
  isNullBodyStatus,
  type Received,
  type Sender,
  type SendInit,
} from '../internal/transport.js';

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

// Lenient as undici is: a body cut short of its trailer is decoded as far as it goes.
const ZLIB = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};
const gunzip = promisify<zlib.InputType, zlib.ZlibOptions, Buffer>(zlib.gunzip);
const inflate = promisify<zlib.InputType, zlib.ZlibOptions, Buffer>(zlib.inflate);
const inflateRaw = promisify<zlib.InputType, zlib.ZlibOptions, Buffer>(zlib.inflateRaw);
const brotli = promisify<zlib.InputType, zlib.BrotliOptions, Buffer>(zlib.brotliDecompress);

const DECODERS: Record<string, (b: Buffer) => Promise<Buffer>> = {
  gzip: (b) => gunzip(b, ZLIB),
  'x-gzip': (b) => gunzip(b, ZLIB),
  br: (b) => brotli(b, BROTLI),
  // fetch accepts zlib-wrapped and raw deflate alike
  deflate: (b) => inflate(b, ZLIB).catch(() => inflateRaw(b, ZLIB)),
};

/** Response headers as node:http gives them (lower-case names), read like `Headers`. */
class NodeHeaders implements HeaderReader {
  readonly #raw: http.IncomingHttpHeaders;
  constructor(raw: http.IncomingHttpHeaders) {
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

function toHeaders(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  new NodeHeaders(raw).forEach((value, name) => {
    headers.append(name, value);
  });
  return headers;
}

function plainHeaders(h: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  if (h instanceof Headers) {
    h.forEach((v, k) => {
      out[k] = v;
    });
  } else {
    for (const k of Object.keys(h)) out[k.toLowerCase()] = h[k] as string;
  }
  return out;
}

/** The body as bytes or a string, with the content type `fetch` would give a form or blob. */
async function encodeBody(
  body: SendInit['body'],
): Promise<{ data: string | Uint8Array | null; type?: string | undefined }> {
  if (body === null || body === undefined) return { data: null };
  if (typeof body === 'string') return { data: body, type: 'text/plain;charset=UTF-8' };
  if (body instanceof Uint8Array) return { data: body };
  if (body instanceof ArrayBuffer) return { data: new Uint8Array(body) };
  if (ArrayBuffer.isView(body)) {
    return { data: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) };
  }
  // FormData, Blob, URLSearchParams, streams: encoded exactly as fetch would send them
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

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

interface Raw {
  res: http.IncomingMessage;
  body: Buffer;
}

type AddRequest = (req: http.ClientRequest, options: unknown) => void;

/** A peer closing a kept-alive connection this soon after its answer closes after every answer. */
const PEER_CLOSE_MS = 100;
/** How long connections are then not reused, before keep-alive is tried again. */
const NO_REUSE_MS = 30_000;

/**
 * Makes a keep-alive `agent` careful about reusing connections, and returns whether requests
 * should ask for `Connection: close` now.
 *
 * A server or proxy that closes a connection right after an answer without saying
 * `Connection: close` would otherwise get the next request on a dying socket, where it fails or
 * is half-processed and must be sent again. So the agent hands out a connection only two
 * event-loop turns after a request asks for one (the second turn begins after a poll for I/O,
 * which reads a close already sent), dropping the connections the peer closed meanwhile; undici
 * waits a turn before reusing a connection for the same reason. And when a peer closes idle
 * connections within 100 ms of their answers, it is taken to close after every answer: requests
 * then say `Connection: close` for 30 s, instead of racing the peer's close on each request.
 */
function guardReuse(agent: http.Agent): () => boolean {
  const freedAt = new WeakMap<object, number>();
  const watched = new WeakSet<object>();
  let noReuseUntil = 0;
  agent.on('free', (socket: Socket) => {
    freedAt.set(socket, performance.now());
    if (watched.has(socket)) return;
    watched.add(socket);
    // the peer's close only (its FIN, or a reset): not the client's own (an aborted request,
    // the agent's idle time-out or free-socket limit)
    const closedByPeer = () => {
      const at = freedAt.get(socket);
      if (at !== undefined && performance.now() - at < PEER_CLOSE_MS) {
        noReuseUntil = performance.now() + NO_REUSE_MS;
      }
    };
    socket.once('end', closedByPeer);
    socket.once('error', closedByPeer);
  });
  const reuse = agent.reuseSocket.bind(agent);
  agent.reuseSocket = (socket, req) => {
    freedAt.delete(socket);
    reuse(socket, req);
  };
  const target = agent as unknown as { addRequest: AddRequest };
  const add = target.addRequest;
  target.addRequest = (req, options) => {
    setImmediate(setImmediate, () => {
      for (const free of Object.values(agent.freeSockets)) {
        for (let i = (free?.length ?? 0) - 1; i >= 0; i--) {
          const socket = free?.[i];
          if (socket && (socket.destroyed || socket.readableEnded || socket.writableEnded)) {
            free?.splice(i, 1);
            socket.destroy();
          }
        }
      }
      add.call(agent, req, options);
    });
  };
  return () => performance.now() < noReuseUntil;
}

export interface HttpSenderOptions {
  /** Agent for http: URLs. Default: a keep-alive agent of this sender's own. */
  httpAgent?: http.Agent | undefined;
  /** Agent for https: URLs (TLS options go here). Default: a keep-alive agent of its own. */
  httpsAgent?: https.Agent | undefined;
}

/** Create a sender on node:http(s) (one per client: its agents hold its connections). */
export function createHttpSender(options: HttpSenderOptions = {}): Sender {
  let httpAgent = options.httpAgent;
  let httpsAgent = options.httpsAgent;
  /** Per agent: whether requests ask for `Connection: close` now (see guardReuse). */
  const closeNow = new WeakMap<http.Agent, () => boolean>();
  const careful = <T extends http.Agent>(agent: T): T => {
    closeNow.set(agent, guardReuse(agent));
    return agent;
  };
  let lastUrl = '';
  let lastParsed: URL | undefined;

  const parse = (url: string): URL => {
    // the bulk path sends to one URL over and over
    if (url !== lastUrl || lastParsed === undefined) {
      lastParsed = new URL(url);
      lastUrl = url;
    }
    return lastParsed;
  };

  function once(
    url: URL,
    method: string,
    headers: Record<string, string>,
    data: string | Uint8Array | null,
    signal: AbortSignal,
  ): Promise<Raw> {
    const tls = url.protocol === 'https:';
    let agent: http.Agent;
    if (tls) agent = httpsAgent ??= careful(new https.Agent({ keepAlive: true }));
    else agent = httpAgent ??= careful(new http.Agent({ keepAlive: true }));
    if (closeNow.get(agent)?.()) headers = { ...headers, connection: 'close' };
    return new Promise<Raw>((resolve, reject) => {
      let settled = false;
      let unwatch: (() => void) | undefined;
      const finish = (err: unknown, raw?: Raw) => {
        if (settled) return;
        settled = true;
        unwatch?.();
        if (raw) resolve(raw);
        else reject(err);
      };
      const req = (tls ? https : http).request(
        {
          protocol: url.protocol,
          hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method,
          headers,
          agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            finish(undefined, {
              res,
              body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks),
            });
          });
          res.on('error', finish);
          res.on('close', () => {
            if (!res.complete) {
              finish(
                Object.assign(new Error('The connection closed before the answer was complete'), {
                  code: 'ECONNRESET',
                }),
              );
            }
          });
        },
      );
      const onAbort = () => {
        const reason = abortReason(signal);
        req.destroy(reason instanceof Error ? reason : undefined);
        finish(reason);
      };
      req.on('error', finish);
      if (signal.aborted) {
        onAbort();
        return;
      }
      unwatch = onAbortOf(signal, onAbort);
      req.end(data ?? undefined);
    });
  }

  async function decode(res: http.IncomingMessage, body: Buffer): Promise<Buffer> {
    const coding = res.headers['content-encoding'];
    if (!coding || body.length === 0) return body;
    // applied in the order listed, so undone last to first; as fetch does, a body with a coding
    // it does not know is left as it came
    const decoders = [];
    for (const c of coding.toLowerCase().split(',').reverse()) {
      const decoder = DECODERS[c.trim()];
      if (decoder === undefined) return body;
      decoders.push(decoder);
    }
    let out = body;
    for (const decoder of decoders) out = await decoder(out);
    return out;
  }

  return async function sendHttp(target: string, init: SendInit, as): Promise<Received> {
    let url = parse(target);
    let method = init.method.toUpperCase();
    const headers = plainHeaders(init.headers);
    let { data, type } = await encodeBody(init.body);
    if (type !== undefined && headers['content-type'] === undefined) headers['content-type'] = type;
    headers.accept ??= '*/*';
    headers['accept-encoding'] ??= 'gzip, deflate, br';
    headers['user-agent'] ??= 'node';
    for (let hops = 0; ; hops++) {
      if (data !== null) {
        headers['content-length'] = String(
          typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength,
        );
      }
      const { res, body } = await once(url, method, headers, data, init.signal);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECT.has(status) && location !== undefined) {
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
      const decoded = await decode(res, body);
      const answer: Received = {
        status,
        statusText: res.statusMessage ?? '',
        headers: as === 'text' ? new NodeHeaders(res.headers) : toHeaders(res.headers),
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
