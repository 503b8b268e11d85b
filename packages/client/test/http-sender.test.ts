/**
 * The Node senders (undici's dispatcher, the default under Node; node:http, for the calls made
 * one at a time with `callsOn: 'node:http'`) and the transport against real loopback servers:
 * what `fetch` does for the client, each must do too (redirects, credentials across origins,
 * encoded answers, forms, keep-alive, peer closes, time-outs, aborts, TLS). Then which sender
 * `createKisClient` sends each call on.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { sendJson } from '@kis/test-support';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKisClientWith } from '../src/client.js';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  type KisClient,
  type KisClientOptions,
  UnprocessableEntityError,
} from '../src/index.js';
import { createKisClient } from '../src/index.node.js';
import { DEFAULT_BACKOFF } from '../src/internal/backoff.js';
import type { Sender } from '../src/internal/http.js';
import { OutgoingRequest } from '../src/internal/outgoing-request.js';
import { createRedactor } from '../src/internal/redact.js';
import { createTransport } from '../src/internal/transport.js';
import { LevelLogger } from '../src/logging.js';
import { createHttpSender } from '../src/node/http-sender.js';
import { createUndiciSender } from '../src/node/undici-sender.js';

const KEY = 'sk-sender-SECRET-9a8b7c6d5e';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  connection: number;
}

interface TestServer {
  url: string;
  origin: string;
  seen: Seen[];
  connections: number;
  closed: number;
  /** Ids (as in `Seen.connection`) of the connections that closed. */
  closedIds: Set<number>;
  close(): Promise<void>;
}

type Route = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

async function serve(route: Route, tls?: { key: Buffer; cert: Buffer }): Promise<TestServer> {
  const state: TestServer = {
    url: '',
    origin: '',
    seen: [],
    connections: 0,
    closed: 0,
    closedIds: new Set(),
    close: async () => undefined,
  };
  const ids = new WeakMap<object, number>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const connection = ids.get(req.socket) ?? 0;
      // the release a client asks once (to read already_existed): no such route, not counted
      if (req.method === 'GET' && path.endsWith('/api/version')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"detail":"Not Found"}');
        return;
      }
      state.seen.push({ method: req.method ?? '', path, headers: req.headers, body, connection });
      route(req, res, body);
    });
  };
  const server: Server = tls ? createHttpsServer(tls, handler) : createServer(handler);
  server.on(tls ? 'secureConnection' : 'connection', (socket) => {
    const id = ++state.connections;
    ids.set(socket, id);
    socket.on('close', () => {
      state.closed++;
      state.closedIds.add(id);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  state.url = `${state.origin}/api`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** A client on `sender` alone, for its calls and its ingestion runs, without retries. */
const clientOn = (
  sender: () => Sender,
  baseUrl: string,
  options: Partial<KisClientOptions> = {},
): KisClient =>
  createKisClientWith(
    { baseUrl, apiKey: KEY, logLevel: 'off', maxRetries: 0, ...options },
    { defaultSender: sender },
  );

const doc = (id: string) => ({
  document: { id, semantic_identifier: id, sections: [{ text: 'x' }], metadata: {} },
});

const ingestAnswer = (body: Buffer) => ({
  document_id: JSON.parse(body.toString('utf8')).document.id,
  already_existed: false,
});

/** Answer encodings the list route can use: [content-encoding, encoder]. */
const ENCODINGS: Record<string, [string | undefined, (raw: Buffer) => Buffer]> = {
  identity: [undefined, (raw) => raw],
  gzip: ['gzip', gzipSync],
  br: ['br', brotliCompressSync],
  deflate: ['deflate', deflateSync],
  'deflate-raw': ['deflate', deflateRawSync],
  // cut short of its 8-byte trailer (CRC and length): fetch decodes what is there
  'gzip-cut': ['gzip', (raw) => gzipSync(raw).subarray(0, -8)],
  // a coding fetch does not know: the body is left as it came, nothing decoded
  'unknown-then-gzip': ['foo, gzip', gzipSync],
};

/** The transport on `sender`, without retries: what every client call goes through. */
function transportOn(sender: () => Sender): (url: string, init: RequestInit) => Promise<Response> {
  const redactor = createRedactor(KEY);
  const transport = createTransport({
    send: sender(),
    apiKey: KEY,
    maxRetries: 0,
    timeoutMs: 10_000,
    backoff: DEFAULT_BACKOFF,
    headers: {},
    log: new LevelLogger('off', console, redactor.text, redactor.value),
    redactor,
  });
  return (url, init) => transport(new OutgoingRequest(url, init));
}

/** Each Node sender, and the TLS options it can be given (as `given` would build it). */
const SENDERS: readonly [string, () => Sender, (ca: Buffer) => (() => Sender)[]][] = [
  [
    'undici',
    () => createUndiciSender(),
    (ca) => [
      () => createUndiciSender({ dispatcher: new Agent({ connect: { ca } }) }),
      () => createUndiciSender({ connect: { ca } }),
    ],
  ],
  ['node:http', () => createHttpSender(), (ca) => [() => createHttpSender({ connect: { ca } })]],
];

describe.each(SENDERS)('the %s sender', (_name, sender, tlsSenders) => {
  const client = (baseUrl: string, options: Partial<KisClientOptions> = {}) =>
    clientOn(sender, baseUrl, options);
  let main: TestServer;
  let other: TestServer;
  /** what GET /api/svc-api/ingestion answers with, encoded with this content-encoding */
  let encoding = 'identity';
  const list = [{ document_id: 'a', semantic_id: 'Ä é 文' }];

  beforeAll(async () => {
    other = await serve((_req, res) =>
      sendJson(res, 200, { document_id: 'b', already_existed: false }),
    );
    main = await serve((req, res, body) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const to = (status: number, location: string) => {
        res.writeHead(status, { location, 'content-length': '0' });
        res.end();
      };
      if (path.startsWith('/moved307/')) return to(307, path.replace('/moved307', ''));
      if (path.startsWith('/moved303/')) return to(303, path.replace('/moved303', ''));
      if (path.startsWith('/moved302/')) return to(302, path.replace('/moved302', ''));
      if (path.startsWith('/moved301/')) return to(301, path.replace('/moved301', ''));
      if (path.startsWith('/away/')) return to(307, `${other.origin}${path.replace('/away', '')}`);
      if (path.startsWith('/loop/')) return to(302, path);
      const hop = /^\/hop\/(\d+)(\/.*)$/.exec(path);
      if (hop) return to(302, `/hop/${Number(hop[1]) + 1}${hop[2]}`);
      if (path === '/api/svc-api/ingestion' && req.method === 'GET') {
        const raw = Buffer.from(JSON.stringify(list));
        const [coding, encode] = ENCODINGS[encoding] ?? [undefined, (raw: Buffer) => raw];
        const encoded = encode(raw);
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(coding ? { 'content-encoding': coding } : {}),
          'content-length': encoded.length,
        });
        return res.end(encoded);
      }
      if (path === '/api/svc-api/ingestion' && req.method === 'POST') {
        return sendJson(res, 200, ingestAnswer(body));
      }
      if (path === '/api/svc-api/ingestion/gone' && req.method === 'DELETE') {
        res.writeHead(204);
        return res.end();
      }
      if (path === '/api/user/projects/file/upload') {
        return sendJson(res, 200, {
          user_files: [{ file_id: 'f1', name: 'pixel.png' }],
          rejected_files: [],
        });
      }
      if (path === '/invalid/api/svc-api/ingestion') {
        return sendJson(
          res,
          422,
          {
            detail: [
              { loc: ['body', 'document', 'sections'], msg: 'Field required', type: 'missing' },
            ],
          },
          { 'x-request-id': 'req-42' },
        );
      }
      if (path.startsWith('/stall/')) return; // never answers
      sendJson(res, 404, { detail: 'not found' });
    });
  });
  afterAll(async () => {
    await main.close();
    await other.close();
  });

  it('sends the key, the JSON body and the retry count, and reuses its keep-alive connections', async () => {
    const kis = client(main.url);
    const before = main.connections;
    const from = main.seen.length;
    for (let i = 0; i < 20; i++) {
      expect(await kis.ingestion.ingest(doc(`d${i}`))).toEqual({
        document_id: `d${i}`,
        already_existed: false,
      });
    }
    const seen = main.seen.slice(from);
    expect(seen).toHaveLength(20);
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(seen[0]?.headers['x-kis-retry-count']).toBe('0');
    expect(seen.at(-1)?.headers.connection).toBe('keep-alive');
    expect(JSON.parse(seen[3]?.body.toString() ?? '')).toEqual(doc('d3'));
    // undici hands a connection out again a loop turn after its answer, so a caller sending
    // the next request at once gets a second one; the two then take turns
    expect(main.connections - before).toBeLessThanOrEqual(2);
    expect(new Set(seen.slice(2).map((s) => s.connection)).size).toBeLessThanOrEqual(2);
  });

  it('goes on when the server closes every connection after its answer (no Connection: close)', async () => {
    const closing = await serve((req, res, body) => {
      res.on('finish', () => req.socket.end());
      sendJson(res, 200, ingestAnswer(body));
    });
    try {
      // with the client's default retries: a request that meets a closing connection is sent again
      const kis = client(closing.url, { maxRetries: 2 });
      for (let i = 0; i < 10; i++) {
        expect(await kis.ingestion.ingest(doc(`k${i}`))).toEqual({
          document_id: `k${i}`,
          already_existed: false,
        });
      }
      const ids = new Set(closing.seen.map((s) => JSON.parse(s.body.toString()).document.id));
      expect(ids.size).toBe(10);
      expect(closing.connections).toBeGreaterThanOrEqual(10);
    } finally {
      await closing.close();
    }
  });

  it('decodes gzip, br and deflate answers (zlib-wrapped or raw) as fetch does', async () => {
    const kis = client(main.url);
    try {
      for (encoding of ['identity', 'gzip', 'br', 'deflate', 'deflate-raw', 'gzip-cut']) {
        expect(await kis.ingestion.list()).toEqual(list);
      }
      encoding = 'unknown-then-gzip';
      const r = await kis.api.GET('/svc-api/ingestion', { parseAs: 'arrayBuffer' });
      expect(Buffer.from(r.data as ArrayBuffer)).toEqual(gzipSync(JSON.stringify(list)));
    } finally {
      encoding = 'identity';
    }
    expect(main.seen.at(-1)?.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('follows 307 with method and body, and turns a POST into a GET on 303', async () => {
    const from = main.seen.length;
    expect(await client(`${main.origin}/moved307/api`).ingestion.ingest(doc('r1'))).toEqual({
      document_id: 'r1',
      already_existed: false,
    });
    expect(main.seen.slice(from).map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /moved307/api/svc-api/ingestion',
      'POST /api/svc-api/ingestion',
    ]);
    expect(main.seen.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

    const mark = main.seen.length;
    const r = await client(`${main.origin}/moved303/api`).api.POST('/svc-api/ingestion', {
      body: doc('r2'),
    });
    expect(r.data).toEqual(list);
    const after = main.seen.slice(mark);
    expect(after.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /moved303/api/svc-api/ingestion',
      'GET /api/svc-api/ingestion',
    ]);
    expect(after[1]?.headers['content-type']).toBeUndefined();
    expect(after[1]?.body.length).toBe(0);
  });

  it('turns a POST into a GET on 301 and 302, its body dropped, as fetch does', async () => {
    for (const status of [301, 302]) {
      const mark = main.seen.length;
      const r = await client(`${main.origin}/moved${status}/api`).api.POST('/svc-api/ingestion', {
        body: doc(`m${status}`),
      });
      expect(r.data).toEqual(list);
      const after = main.seen.slice(mark);
      expect(after.map((s) => `${s.method} ${s.path}`)).toEqual([
        `POST /moved${status}/api/svc-api/ingestion`,
        'GET /api/svc-api/ingestion',
      ]);
      // undici's redirect interceptor keeps the content-type on 301/302, harmless on a GET
      // without a body; it drops the body and its length as fetch does
      expect(after[1]?.headers['content-length']).toBeUndefined();
      expect(after[1]?.body.length).toBe(0);
      expect(after[1]?.headers.authorization).toBe(`Bearer ${KEY}`);
    }
  });

  it('drops the authorization and cookie headers when a redirect leaves the origin', async () => {
    const from = other.seen.length;
    const mark = main.seen.length;
    await client(`${main.origin}/away/api`, {
      headers: { cookie: 'session=s3cr3t', 'x-tenant': 't1' },
    }).ingestion.ingest(doc('x'));
    expect(main.seen[mark]?.headers.cookie).toBe('session=s3cr3t');
    const there = other.seen.slice(from);
    expect(there).toHaveLength(1);
    expect(there[0]?.method).toBe('POST');
    expect(there[0]?.headers.authorization).toBeUndefined();
    expect(there[0]?.headers.cookie).toBeUndefined();
    expect(there[0]?.headers['x-tenant']).toBe('t1');
    expect(JSON.stringify(there[0]?.headers)).not.toContain(KEY);
  });

  it('stops after 20 redirects, answering with the last redirect as an error', async () => {
    const from = main.seen.length;
    const err = await client(`${main.origin}/hop/0/api`)
      .ingestion.list()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(302);
    expect(main.seen.length - from).toBe(21);
    const loop = await client(`${main.origin}/loop/api`)
      .ingestion.list()
      .catch((e: unknown) => e);
    expect(loop).toBeInstanceOf(APIConnectionError);
    expect((loop as Error).message).toMatch(/Redirect loop detected/);
  });

  it('sends forms as multipart with the boundary fetch would use', async () => {
    const from = main.seen.length;
    const bytes = new Uint8Array([137, 80, 78, 71, 0, 255]);
    const answer = await client(main.url).files.upload({
      data: bytes,
      fileName: 'pixel.png',
      contentType: 'image/png',
    });
    expect(answer.user_files[0]?.file_id).toBe('f1');
    const seen = main.seen[from] as Seen;
    const type = String(seen.headers['content-type']);
    expect(type).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen.headers['content-length']).toBe(String(seen.body.length));
    const form = await new Response(new Uint8Array(seen.body), {
      headers: { 'content-type': type },
    }).formData();
    const file = form.get('files') as File;
    expect(file.name).toBe('pixel.png');
    expect(file.type).toBe('image/png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
  });

  it('keeps connections alive after the caller aborts a request', async () => {
    const kis = client(main.url);
    await kis.ingestion.list(); // one kept-alive connection
    const kept = (main.seen.at(-1) as Seen).connection;
    const seenBefore = main.seen.length;
    const ac = new AbortController();
    const aborted = kis.ingestion.list({ signal: ac.signal }).catch((e: unknown) => e);
    setImmediate(() => ac.abort()); // most often before the connection is handed out
    expect(await aborted).toBeInstanceOf(APIUserAbortError);
    // on a busy machine (and with node:http, which writes on the next tick) the request may have
    // been written first: cutting it closes that one; on loopback it has arrived within 50 ms
    await new Promise((r) => setTimeout(r, 50));
    const written = main.seen.slice(seenBefore).map((s) => s.connection);
    const from = main.seen.length;
    for (let i = 0; i < 3; i++) await kis.ingestion.list();
    const after = main.seen.slice(from);
    expect(after.map((s) => s.headers.connection)).toEqual([
      'keep-alive',
      'keep-alive',
      'keep-alive',
    ]);
    // Of this client's connections, only one carrying a written aborted request was closed
    // (other tests' idle connections may time out meanwhile: they are not counted).
    const ours = [...new Set([kept, ...written, ...after.map((s) => s.connection)])];
    expect(ours.filter((id) => main.closedIds.has(id))).toEqual(written);
  });

  it('labels a string body text/plain as fetch does, unless the caller set a type', async () => {
    const send = transportOn(sender);
    const from = main.seen.length;
    const url = `${main.url}/svc-api/ingestion`;
    const body = JSON.stringify(doc('s1'));
    await send(url, { method: 'POST', body });
    await send(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(main.seen.slice(from).map((s) => s.headers['content-type'])).toEqual([
      'text/plain;charset=UTF-8',
      'application/json',
    ]);
  });

  it("drops the caller's length and connection headers: the sender sets them itself", async () => {
    const from = main.seen.length;
    const headers = {
      'Content-Length': '999',
      connection: 'upgrade',
      'keep-alive': 'timeout=5',
      'transfer-encoding': 'chunked',
      upgrade: 'websocket',
    };
    const r = await transportOn(sender)(`${main.url}/echo`, {
      method: 'PUT',
      headers,
      body: 'abc',
    });
    expect(r.status).toBe(404);
    const seen = main.seen[from] as Seen;
    expect(seen.body.toString()).toBe('abc');
    expect(seen.headers['content-length']).toBe('3');
    expect(seen.headers.connection).toBe('keep-alive');
    expect(seen.headers.upgrade).toBeUndefined();
  });

  it('sends blobs, URL-encoded forms and byte views as fetch does', async () => {
    const send = transportOn(sender);
    const from = main.seen.length;
    const url = `${main.url}/echo`;
    const put = (body: BodyInit) => send(url, { method: 'PUT', body });
    await put(new Blob(['{"a":1}'], { type: 'application/json' }));
    await put(new URLSearchParams({ q: 'ä b' }));
    await put(new Uint16Array([0x4241]).subarray(0, 1));
    await put('');
    const seen = main.seen.slice(from);
    expect(seen.map((s) => s.headers['content-type'])).toEqual([
      'application/json',
      'application/x-www-form-urlencoded;charset=UTF-8',
      undefined,
      'text/plain;charset=UTF-8',
    ]);
    expect(seen.map((s) => s.body.toString('latin1'))).toEqual(['{"a":1}', 'q=%C3%A4+b', 'AB', '']);
    expect(seen.map((s) => s.headers['content-length'])).toEqual(['7', '10', '2', '0']);
  });

  it('reads a 204 answer as no body', async () => {
    expect(await client(main.url).ingestion.delete('gone')).toBeNull();
  });

  it('parses error answers on the hot path: status, detail and request id', async () => {
    const err = await client(`${main.origin}/invalid/api`)
      .ingestion.ingest(doc('bad'))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnprocessableEntityError);
    const e = err as UnprocessableEntityError;
    expect(e.status).toBe(422);
    expect(e.requestId).toBe('req-42');
    expect(e.detail[0]?.loc).toEqual(['body', 'document', 'sections']);
    expect(e.message).not.toContain(KEY);
  });

  it('times out a stalled answer and closes its connection', async () => {
    const closedBefore = main.closed;
    const err = await client(`${main.origin}/stall/api`, { timeoutMs: 150 })
      .ingestion.list()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect((err as Error).message).toMatch(/timed out after 150 ms/);
    // the socket was destroyed, not left to hang
    for (let i = 0; i < 100 && main.closed === closedBefore; i++) {
      await new Promise((r) => setImmediate(r));
    }
    expect(main.closed).toBeGreaterThan(closedBefore);
  });

  it("aborts on the caller's signal while waiting for the answer", async () => {
    const ac = new AbortController();
    const from = main.seen.length;
    const pending = client(`${main.origin}/stall/api`)
      .ingestion.list({ signal: ac.signal })
      .catch((e: unknown) => e);
    // abort once the server has the request
    for (let i = 0; i < 1000 && main.seen.length === from; i++) {
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(main.seen.length).toBe(from + 1);
    ac.abort();
    expect(await pending).toBeInstanceOf(APIUserAbortError);
  });

  it('cancelling ingestMany aborts every request in flight and closes its connection', async () => {
    const ac = new AbortController();
    const from = main.seen.length;
    const docs = Array.from({ length: 10 }, (_, i) => doc(`c${i}`).document);
    const run = client(`${main.origin}/stall/api`).ingestMany(docs, {
      concurrency: 4,
      signal: ac.signal,
    });
    const summary = run.done();
    for (let i = 0; i < 1000 && main.seen.length < from + 4; i++) {
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(main.seen.length).toBe(from + 4);
    ac.abort();
    const s = await summary;
    expect(s).toMatchObject({ cancelled: true, aborted: 4, created: 0, failed: 0, total: 4 });
    const used = new Set(main.seen.slice(from).map((x) => x.connection));
    expect(used.size).toBe(4);
    const allClosed = () => [...used].every((id) => main.closedIds.has(id));
    for (let i = 0; i < 100 && !allClosed(); i++) await new Promise((r) => setImmediate(r));
    expect(allClosed()).toBe(true);
    expect(main.seen.length).toBe(from + 4); // nothing sent after the cancel
  });

  it('reports a refused connection as a connection error without the key', async () => {
    const gone = await serve(() => undefined);
    const url = gone.url;
    await gone.close();
    const err = await client(url)
      .ingestion.list()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toMatch(/ECONNREFUSED|connect/);
    expect(JSON.stringify(err)).not.toContain(KEY);
  });

  it('speaks TLS with the dispatcher or the connection options it is given', async () => {
    const key = readFileSync(new URL('./fixtures/loopback-tls.key', import.meta.url));
    const cert = readFileSync(new URL('./fixtures/loopback-tls.crt', import.meta.url));
    const secure = await serve((_req, res, body) => sendJson(res, 200, ingestAnswer(body)), {
      key,
      cert,
    });
    try {
      for (const [i, given] of tlsSenders(cert).entries()) {
        expect(await clientOn(given, secure.url).ingestion.ingest(doc(`tls${i}`))).toEqual({
          document_id: `tls${i}`,
          already_existed: false,
        });
        expect(secure.seen[i]?.headers.authorization).toBe(`Bearer ${KEY}`);
      }
      // without the CA, the certificate is refused
      const err = await client(secure.url)
        .ingestion.list()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APIConnectionError);
    } finally {
      await secure.close();
    }
  });
});

describe('createKisClient under Node', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve((req, res, body) =>
      req.method === 'POST' ? sendJson(res, 200, ingestAnswer(body)) : sendJson(res, 200, []),
    );
  });
  afterAll(() => server.close());

  /** Which library put each request on the wire, seen on their diagnostics channels. */
  async function sentWith(options: Partial<KisClientOptions>): Promise<string[]> {
    const seen: string[] = [];
    // the release a run asks once is a call made one at a time, marked as such
    const mark = (path: unknown) => (String(path).endsWith('/version') ? ' (release)' : '');
    const onHttp = (m: unknown) =>
      seen.push(`node:http${mark((m as { request: { path: string } }).request.path)}`);
    const onUndici = (m: unknown) =>
      seen.push(`undici${mark((m as { request: { path: string } }).request.path)}`);
    subscribe('http.client.request.start', onHttp);
    subscribe('undici:request:create', onUndici);
    try {
      const kis = createKisClient({
        baseUrl: server.url,
        apiKey: KEY,
        logLevel: 'off',
        ...options,
      });
      await kis.ingestion.list();
      seen.push('|');
      await kis.ingestMany([doc('n1').document, doc('n2').document]).done();
    } finally {
      unsubscribe('http.client.request.start', onHttp);
      unsubscribe('undici:request:create', onUndici);
    }
    // the run's requests and its release go out together: their order is the network's
    const bar = seen.indexOf('|');
    return [...seen.slice(0, bar + 1), ...seen.slice(bar + 1).sort()];
  }

  it('sends everything on undici by default', async () => {
    expect(await sentWith({})).toEqual(['undici', '|', 'undici', 'undici', 'undici (release)']);
  });

  it("sends the calls made one at a time on node:http with callsOn: 'node:http', runs on undici", async () => {
    expect(await sentWith({ callsOn: 'node:http' })).toEqual([
      'node:http',
      '|',
      'node:http (release)',
      'undici',
      'undici',
    ]);
  });

  it('refuses a callsOn it does not know', () => {
    expect(() =>
      createKisClient({ baseUrl: server.url, apiKey: KEY, callsOn: 'fetch' as 'undici' }),
    ).toThrow('createKisClient: callsOn must be "undici" or "node:http" (got "fetch")');
  });
});
