/** A small ingestion server on 127.0.0.1 for fault tests: stores documents by the id a deployed server would use. */
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { deriveDocumentId, normalizeDocumentId } from '@kis/rules';

export interface Faults {
  /** Probability of answering 503 before processing. */
  p503?: number;
  /** Probability of answering 429 with Retry-After before processing. */
  p429?: number;
  /** Probability of destroying the socket before processing. */
  pDropBefore?: number;
  /** Probability of storing the document, then destroying the socket (the answer is lost). */
  pDropAfter?: number;
  /** Probability of storing the document, then cutting the connection half-way through the answer. */
  pCutBody?: number;
  /** Probability of storing the document, then sending half the answer and stalling. */
  pStallBody?: number;
  /** Service time per request in ms. */
  delayMs?: number;
  seed?: number;
}

export interface StoredDoc {
  body: { document: Record<string, unknown>; cc_pair_id?: number | null };
  writes: number;
}

export interface Loopback {
  url: string;
  docs: Map<string, StoredDoc>;
  lostAfterStore: Set<string>;
  requests: number;
  /** Requests being handled now. */
  inFlight: number;
  /** Stops listening and drops every connection: clients get "connection refused". */
  goDown(): Promise<void>;
  /** Listens again on the same port. */
  comeBack(): Promise<void>;
  close(): Promise<void>;
}

/** Deterministic PRNG (mulberry32) so failures can be reproduced from the seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Answer with `body` as JSON (content-type and content-length set). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startLoopback(faults: Faults = {}, apiKey?: string): Promise<Loopback> {
  const random = prng(faults.seed ?? 1);
  // cumulative thresholds of one draw per request: 503, 429, drop before, drop after storing,
  // cut and stalled answers
  const edges: number[] = [];
  let sum = 0;
  const draws = [faults.p503, faults.p429, faults.pDropBefore, faults.pDropAfter];
  for (const p of [...draws, faults.pCutBody, faults.pStallBody]) {
    sum += p ?? 0;
    edges.push(sum);
  }
  const state: Loopback = {
    url: '',
    docs: new Map(),
    lostAfterStore: new Set(),
    requests: 0,
    inFlight: 0,
    goDown: async () => undefined,
    comeBack: async () => undefined,
    close: async () => undefined,
  };
  const send = sendJson;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    state.requests++;
    const raw = await readBody(req);
    if (apiKey && req.headers.authorization !== `Bearer ${apiKey}`)
      return send(res, 401, { detail: 'bad key' });
    if (faults.delayMs) await new Promise((r) => setTimeout(r, faults.delayMs));
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path === '/api/svc-api/ingestion') {
      return send(
        res,
        200,
        [...state.docs.keys()].map((id) => ({ document_id: id, semantic_id: id })),
      );
    }
    if (req.method !== 'POST' || path !== '/api/svc-api/ingestion')
      return send(res, 404, { detail: 'not found' });
    const r = random();
    if (r < (edges[0] as number)) return send(res, 503, { detail: 'overloaded' });
    if (r < (edges[1] as number))
      return send(res, 429, { detail: 'slow down' }, { 'retry-after': '0' });
    if (r < (edges[2] as number)) return req.socket.destroy();
    let body: StoredDoc['body'];
    try {
      body = JSON.parse(raw);
    } catch {
      return send(res, 400, { detail: 'not JSON' });
    }
    const d = body.document;
    const id =
      typeof d.id === 'string' && d.id
        ? normalizeDocumentId(d.id)
        : deriveDocumentId(String(d.semantic_identifier));
    const existing = state.docs.get(id);
    state.docs.set(id, { body, writes: (existing?.writes ?? 0) + 1 });
    if (r < (edges[3] as number)) {
      state.lostAfterStore.add(id);
      return req.socket.destroy();
    }
    const answer = JSON.stringify({ document_id: id, already_existed: existing !== undefined });
    if (r < (edges[5] as number)) {
      // headers and half the body, then the connection is cut (or the rest never comes)
      state.lostAfterStore.add(id);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(answer),
      });
      res.write(answer.slice(0, answer.length >> 1));
      if (r < (edges[4] as number)) setTimeout(() => req.socket.destroy(), 5);
      return;
    }
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(answer),
    });
    res.end(answer);
  };
  const server: Server = createServer((req, res) => {
    state.inFlight++;
    handle(req, res)
      .catch(() => res.destroy())
      .finally(() => {
        state.inFlight--;
      });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}/api`;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  state.goDown = stop;
  state.comeBack = () =>
    new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  state.close = () => (server.listening ? stop() : Promise.resolve());
  return state;
}
