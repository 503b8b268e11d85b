import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKisClient, type KisError } from '../src/index.js';
import {
  API_KEY,
  BASE,
  client,
  doc,
  json,
  memoryJournal,
  memoryLogger,
  mockFetch,
} from './helpers.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('logging levels', () => {
  it('debug logs every request and answer with the authorization header redacted', async () => {
    const log = memoryLogger();
    const { fetch } = mockFetch(() => json([], 200, { 'x-request-id': 'r1' }));
    const kis = client(fetch, { logLevel: 'debug', logger: log.logger });
    await kis.credentials.list();
    const debug = log.lines.filter((l) => l.level === 'debug');
    expect(debug.map((l) => l.message)).toEqual([
      '[kis] → GET https://kis.test/api/manage/admin/credential',
      expect.stringMatching(
        /^\[kis\] ← 200 GET https:\/\/kis\.test\/api\/manage\/admin\/credential in \d+ ms$/,
      ),
    ]);
    expect(debug[0]?.fields).toMatchObject({ headers: { authorization: '[REDACTED]' } });
    expect(log.text()).not.toContain(API_KEY);
  });

  it('info logs retries and final failures; warn stays quiet; off logs nothing', async () => {
    const log = memoryLogger();
    const { fetch } = mockFetch((_c, i) =>
      i === 0 ? json({ detail: 'busy' }, 503) : json({ detail: 'gone' }, 404),
    );
    const kis = client(fetch, { logLevel: 'info', logger: log.logger });
    await kis.credentials.list().catch(() => undefined);
    expect(log.lines.map((l) => l.level)).toEqual(['info', 'info']);
    expect(log.lines[0]?.message).toMatch(/retrying GET .* after 503 \(retry 1 of 2\)/);
    expect(log.lines[1]?.message).toMatch(/^\[kis\] 404 on GET .*: gone\./);
    const warnOnly = memoryLogger();
    const kis3 = client(mockFetch(() => json({ detail: 'x' }, 404)).fetch, {
      logLevel: 'warn',
      logger: warnOnly.logger,
    });
    await kis3.credentials.list().catch(() => undefined);
    expect(warnOnly.lines).toEqual([]);
    const quiet = memoryLogger();
    const kis2 = client(mockFetch(() => json({ detail: 'x' }, 500)).fetch, {
      logLevel: 'off',
      logger: quiet.logger,
    });
    await kis2.credentials.list().catch(() => undefined);
    expect(quiet.lines).toEqual([]);
  });

  it('KIS_LOG sets the level when no option is given, and a bad value is a clear error', async () => {
    vi.stubEnv('KIS_LOG', 'debug');
    const log = memoryLogger();
    const { fetch } = mockFetch(() => json([]));
    const kis = createKisClient({ baseUrl: BASE, apiKey: API_KEY, fetch, logger: log.logger });
    await kis.credentials.list();
    expect(log.lines.some((l) => l.level === 'debug')).toBe(true);
    vi.stubEnv('KIS_LOG', 'loud');
    expect(() => createKisClient({ baseUrl: BASE, apiKey: API_KEY, fetch })).toThrow(
      /KIS_LOG must be one of off, error, warn, info, debug/,
    );
    // the option wins over the environment
    expect(() =>
      createKisClient({ baseUrl: BASE, apiKey: API_KEY, fetch, logLevel: 'off' }),
    ).not.toThrow();
  });
});

describe('the API key never leaks', () => {
  it('not in log lines, error messages, JSON, util.inspect or the journal', async () => {
    const log = memoryLogger();
    const { journal, acked, uploads } = memoryJournal();
    let n = 0;
    // a hostile server echoes the key and the authorization header in every failure shape
    const { fetch } = mockFetch((c) => {
      n++;
      const auth = c.headers.get('authorization') ?? '';
      if (n % 5 === 1) return json({ detail: `bad token ${auth}` }, 401);
      if (n % 5 === 2)
        return json({ error_code: 'X', detail: `key=${API_KEY}` }, 500, {
          'x-request-id': `req-${API_KEY}`,
        });
      if (n % 5 === 3)
        return new Response(`<html><title>${API_KEY} ${auth}</title></html>`, {
          // a login page answering 200, echoing the key and the header, tagged with it
          status: n % 2 === 0 ? 200 : 404,
          headers: { 'content-type': 'text/html', 'x-request-id': auth },
        });
      if (n % 5 === 4)
        throw Object.assign(new TypeError(`fetch failed ${API_KEY}`), {
          cause: new Error(`socket ${auth}`),
        });
      return json({
        already_existed: false,
        document_id: (c.body as { document: { id: string } }).document.id,
      });
    });
    const kis = client(fetch, { logLevel: 'debug', logger: log.logger, maxRetries: 0 });
    const errors: KisError[] = [];
    for (let i = 0; i < 10; i++) {
      await kis.ingestion.ingest({ document: doc(i) }).catch((e) => errors.push(e));
    }
    const run = kis.ingestMany(
      Array.from({ length: 10 }, (_, i) => doc(`j${i}`)),
      { journal, concurrency: 2, maxRetries: 0 },
    );
    for await (const r of run) if (r.error) errors.push(r.error);
    await kis
      .setupConnector({
        connector: {
          name: 'c',
          source: 'file',
          input_type: 'poll',
          access_type: 'public',
          connector_specific_config: { file_locations: [] },
        },
      })
      .catch((e) => errors.push(e));
    expect(errors.length).toBeGreaterThan(8);
    const haystacks = [
      log.text(),
      JSON.stringify([...acked.values(), ...uploads.entries()]),
      ...errors.flatMap((e) => [
        e.message,
        String(e.stack),
        JSON.stringify(e),
        inspect(e, { depth: 10 }),
        inspect(e.cause, { depth: 10 }),
      ]),
    ];
    for (const h of haystacks) expect(h).not.toContain(API_KEY);
    expect(log.text()).toContain('[REDACTED]');
  });

  it('keeps placeholders and prose about bearer tokens readable', async () => {
    const { fetch } = mockFetch(() =>
      json(
        { detail: 'send the header Authorization: Bearer <API key> (a Bearer token); got none' },
        401,
      ),
    );
    const err = await client(fetch)
      .credentials.list()
      .catch((e) => e);
    expect(err.message).toContain('Authorization: Bearer <API key> (a Bearer token)');
    const echoed = mockFetch((c) => json({ detail: `got ${c.headers.get('authorization')}` }, 401));
    const err2 = await client(echoed.fetch)
      .credentials.list()
      .catch((e) => e);
    expect(err2.message).toContain('got Bearer [REDACTED]');
  });

  it('client objects do not show the key when inspected', () => {
    const kis = client(mockFetch(() => json({})).fetch);
    expect(inspect(kis, { depth: 5 })).not.toContain(API_KEY);
    expect(JSON.stringify(Object.keys(kis))).not.toContain(API_KEY);
  });
});
