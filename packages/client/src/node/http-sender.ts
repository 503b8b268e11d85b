/**
 * A Node sender on node:http and node:https, for calls made one at a time (`callsOn:
 * 'node:http'`). Node's own client parses answers natively: a process that makes a few calls and
 * exits loads nothing more, where undici (about 110 modules and a WebAssembly parser to compile)
 * costs some 150 ms and 40 MB at its first request. It sends as the undici sender does, the way
 * fetch does: keep-alive connections per client, redirects followed (up to 20; a 303 becomes a
 * GET, and a 301 or 302 turns a POST into one; credentials dropped when a redirect leaves the
 * origin), answers decoded (gzip, deflate, br), forms, blobs and strings encoded as fetch encodes
 * them.
 */
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  STATUS_CODES,
} from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { createRequire } from 'node:module';
import type { ConnectionOptions } from 'node:tls';
import type { Received, Sender, Sent } from '../internal/http.js';
import { headerPairs } from './answer-headers.js';
import { decodeBody } from './decode-body.js';
import { type EncodedBody, encodeBody, plainBody } from './encode-body.js';

/** Most redirects followed for one request, as fetch does. */
const MAX_REDIRECTS = 20;
/** The statuses a redirect is followed on, as undici's redirect interceptor follows them. */
const REDIRECTS = new Set([300, 301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIALS = new Set(['authorization', 'cookie', 'proxy-authorization']);

export interface HttpSenderOptions {
  /** TLS options of the sender's own https Agent (`ca`, `cert`, `key`, `servername`…). */
  connect?: ConnectionOptions | undefined;
}

/** One request on the wire: where, how, and what it carries. */
interface Hop {
  url: URL;
  method: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: EncodedBody['data'];
}

type Https = typeof import('node:https');
let https: Https | undefined;
/** node:https, and TLS with it, load with the first https request: a local server's calls skip them. */
const httpsModule = (): Https => {
  https ??= createRequire(import.meta.url)('node:https') as Https;
  return https;
};

/** A URL as redirects are compared: a redirect back to one already asked is a loop. */
const place = (url: URL) => `${url.origin}${url.pathname}${url.search}`;

/**
 * The hop a redirect to `location` asks for: a 303 becomes a GET (a HEAD stays), a 301 or 302
 * turns a POST into a GET, each without the body; a 303 drops the content headers, and a new
 * origin the credentials.
 */
function redirected(hop: Hop, status: number, location: URL): Hop {
  const toGet =
    (status === 303 && hop.method !== 'HEAD') ||
    ((status === 301 || status === 302) && hop.method === 'POST');
  const otherOrigin = location.origin !== hop.url.origin;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(hop.headers)) {
    if (name === 'host' || (status === 303 && name.startsWith('content-'))) continue;
    if (otherOrigin && CREDENTIALS.has(name)) continue;
    headers[name] = value;
  }
  return {
    url: location,
    method: toGet ? 'GET' : hop.method,
    headers,
    body: toGet ? null : hop.body,
  };
}

/** Create a sender on node:http and node:https (one per client: its agents hold its connections). */
export function createHttpSender(options: HttpSenderOptions = {}): Sender {
  // idle connections do not keep the process alive: Node's agents unref them
  let httpAgent: HttpAgent | undefined;
  let httpsAgent: HttpsAgent | undefined;
  const requestOn = (url: URL, method: string, headers: Record<string, string>): ClientRequest => {
    if (url.protocol !== 'https:') {
      httpAgent ??= new HttpAgent({ keepAlive: true });
      return httpRequest(url, { method, headers, agent: httpAgent });
    }
    const { Agent, request } = httpsModule();
    httpsAgent ??= new Agent({ keepAlive: true, ...options.connect });
    return request(url, { method, headers, agent: httpsAgent });
  };

  return (target, init): Sent => {
    let current: ClientRequest | undefined;
    let settled = false;
    let fail: (error: unknown) => void = () => undefined;
    const received = new Promise<Received>((resolve, reject) => {
      fail = (error) => {
        if (settled) return;
        settled = true;
        // on the wire, this closes the connection; not yet on one, the agent keeps it
        current?.destroy();
        reject(error);
      };
      const answer = (res: IncomingMessage, hop: Hop) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          if (settled) return;
          const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
          let body: Uint8Array<ArrayBuffer> | null;
          try {
            const coding = res.headers['content-encoding'];
            body = decodeBody(Array.isArray(coding) ? coding.join(',') : coding, raw);
          } catch (error) {
            fail(error);
            return;
          }
          settled = true;
          const status = res.statusCode ?? 0;
          resolve({
            status,
            statusText: res.statusMessage || STATUS_CODES[status] || '',
            headers: headerPairs(res.headers),
            body: hop.method === 'HEAD' || body === null || body.length === 0 ? null : body,
          });
        });
      };
      const send = (hop: Hop, history: string[], again = true) => {
        if (settled) return;
        const { url } = hop;
        const request = requestOn(url, hop.method, hop.headers);
        current = request;
        request.on('error', (error: NodeJS.ErrnoException) => {
          // a kept-alive connection the server closed as it was reused: the request never got
          // there, so it goes once more on a new connection (what Node's documentation advises)
          const closedIdle = error.code === 'ECONNRESET' || error.code === 'EPIPE';
          if (again && !settled && request.reusedSocket && closedIdle) send(hop, history, false);
          else fail(error);
        });
        request.on('response', (res) => {
          // an answer cut short fails the attempt, as a connection failure
          res.on('close', () => {
            if (!res.complete) fail(new Error(`${hop.method} ${url.href}: the answer was cut off`));
          });
          const status = res.statusCode ?? 0;
          const location = res.headers.location;
          history.push(place(url));
          if (history.length > MAX_REDIRECTS || !REDIRECTS.has(status) || !location) {
            answer(res, hop);
            return;
          }
          const next = new URL(location, url);
          if (history.includes(place(next))) {
            fail(new Error(`Redirect loop detected: ${url.href} redirects back to ${next.href}`));
            return;
          }
          // a redirect's body is read to its end, so that its connection serves the next hop
          res.resume();
          res.on('end', () => send(redirected(hop, status, next), history));
        });
        request.end(hop.body ?? undefined);
      };
      const headers: Record<string, string> = {
        'accept-encoding': 'gzip, deflate, br',
        ...init.headers,
      };
      const start = (encoded: EncodedBody) => {
        if (encoded.type !== undefined) headers['content-type'] ??= encoded.type;
        send({ url: new URL(target), method: init.method, headers, body: encoded.data }, []);
      };
      // strings and bytes go at once; forms and blobs are encoded first
      const plain = plainBody(init.body);
      if (plain !== undefined) start(plain);
      else encodeBody(init.body as Blob | FormData | URLSearchParams).then(start, fail);
    });
    return { received, abort: (reason) => fail(reason) };
  };
}
