import {
  createKisClient,
  type IngestJournal,
  type JournalEntry,
  type KisClient,
  type KisClientOptions,
  type Logger,
} from '../src/index.js';

export const API_KEY = 'sk-test-SECRET-0123456789abcdef';
export const BASE = 'https://kis.test/api';

export interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
  /** Raw body as given to fetch (string, FormData, ArrayBuffer...). */
  rawBody: BodyInit | null | undefined;
}

export type Handler = (call: Call, index: number) => Response | Promise<Response>;

/** Whether a call asks the server's release (`GET /version`). */
const asksVersion = (url: string, init?: RequestInit) =>
  (init?.method ?? 'GET') === 'GET' && new URL(url).pathname.endsWith('/version');

/**
 * A fetch that records calls and answers with `handler`. `GET /version`, which a client asks once
 * to read `already_existed`, is answered apart and not recorded, so tests count the calls they
 * make: with `version` as that release, else as a server that follows the seed (404, no route);
 * `versionAsked` counts them.
 */
export function mockFetch(handler: Handler, options: { version?: string } = {}) {
  const calls: Call[] = [];
  const asked = { count: 0 };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (asksVersion(url, init)) {
      asked.count++;
      return options.version === undefined
        ? json({ detail: 'Not Found' }, 404)
        : json({ backend_version: options.version });
    }
    const headers = new Headers(
      init?.headers ?? (input instanceof Request ? input.headers : undefined),
    );
    const raw = init?.body;
    let body: unknown = raw;
    if (typeof raw === 'string') {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const call: Call = { url, method: init?.method ?? 'GET', headers, body, rawBody: raw };
    calls.push(call);
    if (init?.signal?.aborted)
      throw init.signal.reason ?? new DOMException('aborted', 'AbortError');
    return handler(call, calls.length - 1);
  };
  return {
    fetch: fetch as typeof globalThis.fetch,
    calls,
    versionAsked: () => asked.count,
  };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function memoryLogger() {
  const lines: Array<{ level: string; message: string; fields?: unknown }> = [];
  const make = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    lines.push({ level, message, fields });
  const logger: Logger = {
    error: make('error'),
    warn: make('warn'),
    info: make('info'),
    debug: make('debug'),
  };
  return {
    logger,
    lines,
    text: () => lines.map((l) => `${l.message} ${JSON.stringify(l.fields ?? {})}`).join('\n'),
  };
}

export function client(
  fetch: typeof globalThis.fetch,
  options: Partial<KisClientOptions> = {},
): KisClient {
  return createKisClient({
    baseUrl: BASE,
    apiKey: API_KEY,
    fetch,
    logLevel: 'off',
    backoff: { initialDelayMs: 1, maxDelayMs: 2 },
    ...options,
  });
}

export function doc(i: number | string, extra: Record<string, unknown> = {}) {
  return {
    id: `doc-${i}`,
    semantic_identifier: `Document ${i}`,
    sections: [{ text: `body of ${i}` }],
    source: 'file' as const,
    metadata: {},
    ...extra,
  };
}

/** An in-memory `IngestJournal` (the file journal is @kis/node's), with what it holds. */
export function memoryJournal() {
  const acked = new Map<string, JournalEntry>();
  const uploads = new Map<string, string>();
  const journal: IngestJournal = {
    has: (id, hash) => acked.get(id)?.hash === hash,
    record: (entry) => void acked.set(entry.id, entry),
    uploadOf: (sha256) => uploads.get(sha256),
    recordUpload: (entry) => void uploads.set(entry.sha256, entry.fileId),
    fingerprintOf: (id) => acked.get(id)?.fingerprint,
    stampOf: (id, hash) => {
      const entry = acked.get(id);
      if (entry?.updatedAt === undefined) return undefined;
      return { updatedAt: entry.updatedAt, sameContent: entry.hash === hash };
    },
  };
  return { journal, acked, uploads };
}

/** Polls `probe` until it holds (an emulator's background work runs on its own timer). */
export async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A document with an id, a text and metadata. */
export const textDocument = (id: string, text = 'x', metadata: Record<string, string> = {}) => ({
  id,
  semantic_identifier: id,
  sections: [{ text }],
  metadata,
});
