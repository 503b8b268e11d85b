/**
 * Small HTTP servers on 127.0.0.1 that answer as the compat notes say a kind of server does: only
 * the routes given, FastAPI's 404 `{"detail":"Not Found"}` for any other path and 405 for a known
 * path with another method. Every request is recorded, so tests can count what was sent where.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  /** The path below `/api`, e.g. `/manage/connector/7/credential/3`. */
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
}

export interface Reply {
  status?: number;
  /** JSON unless `html` is set. */
  body?: unknown;
  html?: string;
}

/** `METHOD /path` → reply; `{name}` in the path matches one segment. */
export type Routes = Record<string, (req: Received) => Reply>;

export interface FakeServer {
  /** Base URL with `/api`. */
  baseUrl: string;
  /** The origin alone (no `/api`). */
  origin: string;
  requests: Received[];
  /** `METHOD /path` of every request, in order. */
  calls(): string[];
  close(): Promise<void>;
}

function matcher(pattern: string): RegExp {
  const source = pattern.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${source}$`);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A server with `routes` under `/api` (and `outside` answered for any path outside `/api`). */
export async function startFakeServer(
  routes: Routes,
  outside?: (req: Received) => Reply,
): Promise<FakeServer> {
  const table = Object.entries(routes).map(([key, reply]) => {
    const [method = '', path = ''] = key.split(' ');
    return { method, re: matcher(path), reply };
  });
  const requests: Received[] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const inApi = url.pathname.startsWith('/api/');
      const path = inApi ? url.pathname.slice(4) : url.pathname;
      const received = {
        method: req.method ?? 'GET',
        path,
        headers: req.headers,
        body,
        json: parse(body),
      };
      requests.push(received);
      const sameMethod = table.find((r) => r.method === received.method && r.re.test(path));
      let reply: Reply;
      if (!inApi && outside) reply = outside(received);
      else if (inApi && sameMethod) reply = sameMethod.reply(received);
      else if (inApi && table.some((r) => r.re.test(path)))
        reply = { status: 405, body: { detail: 'Method Not Allowed' } };
      else reply = { status: 404, body: { detail: 'Not Found' } };
      const text = reply.html ?? JSON.stringify(reply.body ?? null);
      res.writeHead(reply.status ?? 200, {
        'content-type': reply.html === undefined ? 'application/json' : 'text/html; charset=utf-8',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}/api`,
    origin,
    requests,
    calls: () => requests.map((r) => `${r.method} ${r.path}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (a server started and stopped). */
export async function deadBaseUrl(): Promise<string> {
  const s = await startFakeServer({});
  await s.close();
  return s.baseUrl;
}
