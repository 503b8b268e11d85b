import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as dist from '../dist/index.js';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  FeatureUnavailableError,
  HtmlResponseError,
  InternalServerError,
  KisError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from '../src/index.js';
import { API_KEY, client, doc, json, mockFetch } from './helpers.js';

async function failWith(response: () => Response) {
  const { fetch } = mockFetch(() => response());
  const kis = client(fetch, { maxRetries: 0 });
  try {
    await kis.ingestion.ingest({ document: doc(1), cc_pair_id: 1 });
  } catch (err) {
    return err as KisError;
  }
  throw new Error('expected a failure');
}

describe('typed errors from every error shape in compat-notes', () => {
  it('FastAPI 422 {detail:[{loc,msg,type}]} → UnprocessableEntityError with detail', async () => {
    const err = await failWith(() =>
      json(
        {
          detail: [
            {
              loc: ['body', 'document', 'sections', 0, 'text'],
              msg: 'Field required',
              type: 'missing',
            },
          ],
        },
        422,
        { 'x-request-id': 'req-422' },
      ),
    );
    expect(UnprocessableEntityError.isInstance(err)).toBe(true);
    const e = err as UnprocessableEntityError;
    expect(e.status).toBe(422);
    expect(e.requestId).toBe('req-422');
    expect(e.detail).toEqual([
      { loc: ['body', 'document', 'sections', 0, 'text'], msg: 'Field required', type: 'missing' },
    ]);
    expect(e.message).toContain('document.sections[0].text: Field required');
    expect(e.message).toContain('POST https://kis.test/api/svc-api/ingestion');
    expect(e.message).toContain('req-422');
  });

  it('Prism problem+json validation[] maps to the same detail list', async () => {
    const err = await failWith(
      () =>
        new Response(
          JSON.stringify({
            type: 'https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY',
            title: 'Invalid request',
            status: 422,
            detail:
              'Your request is not valid and no HTTP validation response was found in the spec, so Prism is generating this error for you.',
            validation: [
              {
                location: ['body', 'document', 'semantic_identifier'],
                severity: 'Error',
                code: 'required',
                message: "must have required property 'semantic_identifier'",
              },
            ],
          }),
          { status: 422, headers: { 'content-type': 'application/problem+json' } },
        ),
    );
    const e = err as UnprocessableEntityError;
    expect(UnprocessableEntityError.isInstance(e)).toBe(true);
    expect(e.detail).toEqual([
      {
        loc: ['body', 'document', 'semantic_identifier'],
        msg: "must have required property 'semantic_identifier'",
        type: 'required',
      },
    ]);
    expect(e.message).toContain('document.semantic_identifier');
    expect(e.message).toContain('Invalid request');
    // A missing property reported at its parent (Prism, Ajv) gets the field appended, as FastAPI does.
    const atParent = await failWith(() =>
      json(
        {
          validation: [
            {
              location: ['body', 'document'],
              code: 'required',
              message: "must have required property 'semantic_identifier'",
            },
          ],
        },
        422,
      ),
    );
    expect((atParent as UnprocessableEntityError).detail[0]?.loc).toEqual([
      'body',
      'document',
      'semantic_identifier',
    ]);
  });

  it('Prism answers with the static 422 example: the sl-violations header names the field', async () => {
    const violations = [
      {
        location: ['request', 'body', 'document'],
        severity: 'Error',
        code: 'required',
        message: "Request body property document must have required property 'semantic_identifier'",
      },
    ];
    const err = await failWith(() =>
      json({ detail: [{ loc: ['body'], msg: 'Field required', type: 'missing' }] }, 422, {
        'sl-violations': JSON.stringify(violations),
      }),
    );
    const e = err as UnprocessableEntityError;
    expect(UnprocessableEntityError.isInstance(e)).toBe(true);
    expect(e.detail).toEqual([
      {
        loc: ['body', 'document', 'semantic_identifier'],
        msg: violations[0]?.message,
        type: 'required',
      },
    ]);
    expect(e.message).toContain('document.semantic_identifier');
  });

  it('both 422 shapes (seed {detail:[...]}, deployed {status_code, message}) give the same error and detail', async () => {
    const items = [
      { loc: ['body', 'document', 'semantic_identifier'], msg: 'Field required', type: 'missing' },
      {
        loc: ['body', 'document', 'sections', 0, 'text'],
        msg: "Input isn't a string",
        type: 'string_type',
      },
    ];
    // deployed servers print FastAPI's list as Python does (compat notes, "Ingestion")
    const message =
      "[{'type': 'missing', 'loc': ('body', 'document', 'semantic_identifier'), 'msg': 'Field required', 'input': {'sections': []}}, " +
      `{'type': 'string_type', 'loc': ('body', 'document', 'sections', 0, 'text'), 'msg': "Input isn't a string", 'input': 5}]`;
    const seed = (await failWith(() => json({ detail: items }, 422))) as UnprocessableEntityError;
    const deployed = (await failWith(() =>
      json({ status_code: 422, message, data: null }, 422),
    )) as UnprocessableEntityError;
    for (const err of [seed, deployed]) {
      expect(UnprocessableEntityError.isInstance(err)).toBe(true);
      expect(err.detail).toEqual(items);
      expect(err.message).toContain(
        "document.semantic_identifier: Field required; document.sections[0].text: Input isn't a string",
      );
    }
    expect(deployed.message).toBe(seed.message);
  });

  it('a deployed 422 whose message is not a Python list keeps it as the one detail item', async () => {
    const err = await failWith(() =>
      json({ status_code: 422, message: 'access_type must be public', data: null }, 422),
    );
    expect(UnprocessableEntityError.isInstance(err)).toBe(true);
    expect((err as UnprocessableEntityError).detail).toEqual([
      { loc: [], msg: 'access_type must be public', type: 'value_error' },
    ]);
    expect(err.message).toContain('access_type must be public');
  });

  it('a 403 that says the user is not authenticated is an AuthenticationError (a rejected key)', async () => {
    const err = await failWith(() =>
      json({ detail: 'Access denied. User is not authenticated.' }, 403),
    );
    expect(AuthenticationError.isInstance(err)).toBe(true);
    expect(PermissionDeniedError.isInstance(err)).toBe(false);
    expect(err.status).toBe(403);
    expect(err.message).toContain('Check the API key.');
  });

  it('a 401 about an unknown credential is a NotFoundError, not a rejected key', async () => {
    const { fetch } = mockFetch(() =>
      json({ detail: 'Credential 9 does not exist or does not belong to user' }, 401),
    );
    const kis = client(fetch, { maxRetries: 0 });
    const err = (await kis.credentials.get(9).catch((e: unknown) => e)) as KisError;
    expect(NotFoundError.isInstance(err)).toBe(true);
    expect(AuthenticationError.isInstance(err)).toBe(false);
    expect(err.status).toBe(401);
    expect(err.message).not.toContain('Check the API key');
  });

  it('every "no such pair" answer (400, 403 or 404 by route and release) is a NotFoundError', async () => {
    const answers: [number, object][] = [
      [400, { detail: 'CC Pair not found for current user permissions' }],
      [
        403,
        {
          error_code: 'INSUFFICIENT_PERMISSIONS',
          detail: 'CC Pair not found for current user permissions',
        },
      ],
      [404, { detail: 'Connector-credential pair 7 does not exist' }],
    ];
    for (const [status, body] of answers) {
      const { fetch } = mockFetch(() => json(body, status));
      const kis = client(fetch, { maxRetries: 0 });
      const err = (await kis.pairs.lastPruned(7).catch((e: unknown) => e)) as KisError;
      expect(NotFoundError.isInstance(err), `${status}`).toBe(true);
      expect(PermissionDeniedError.isInstance(err)).toBe(false);
      expect(err.status).toBe(status);
      expect(err.message).not.toContain('This operation needs');
    }
  });

  it('a 403 for a missing role is a PermissionDeniedError naming the role the operation needs', async () => {
    const { fetch } = mockFetch(() =>
      json({ error_code: 'INSUFFICIENT_PERMISSIONS', detail: 'Curator role required' }, 403),
    );
    const kis = client(fetch, { maxRetries: 0 });
    const err = (await kis.credentials.list().catch((e: unknown) => e)) as PermissionDeniedError;
    expect(PermissionDeniedError.isInstance(err)).toBe(true);
    expect(AuthenticationError.isInstance(err)).toBe(false);
    expect(err.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect(err.roles).toEqual(['admin', 'curator']);
    expect(err.message).toContain(
      'This operation needs a key that can manage connectors (admin or curator).',
    );
    // ingestion needs the same role on deployed servers
    const ingest = (await failWith(() =>
      json({ detail: 'Access denied: this operation needs a key with the admin role' }, 403),
    )) as PermissionDeniedError;
    expect(ingest.message).toContain('a key that can manage connectors (admin or curator)');
  });

  it('{error_code, detail} keeps the code', async () => {
    const err = await failWith(() =>
      json(
        { error_code: 'CONNECTOR_NOT_FOUND', detail: 'Connector-credential pair 99 not found' },
        404,
      ),
    );
    expect(NotFoundError.isInstance(err)).toBe(true);
    expect(err.code).toBe('CONNECTOR_NOT_FOUND');
    expect(err.message).toContain('Connector-credential pair 99 not found (CONNECTOR_NOT_FOUND)');
  });

  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [413, PayloadTooLargeError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [418, APIError],
  ] as const)('status %i → %o, {detail: string}', async (status, Cls) => {
    const err = await failWith(() => json({ detail: `problem ${status}` }, status));
    expect((Cls as typeof KisError).isInstance(err)).toBe(true);
    expect(APIError.isInstance(err)).toBe(true);
    expect(KisError.isInstance(err)).toBe(true);
    expect(err).toBeInstanceOf(Cls);
    expect(err.status).toBe(status);
    expect(err.message).toContain(`problem ${status}`);
    expect(err.name).toBe((Cls as unknown as { kind: string }).kind);
  });

  it('{message} and plain text bodies', async () => {
    expect((await failWith(() => json({ message: 'quota exhausted' }, 403))).message).toContain(
      'quota exhausted',
    );
    const text = await failWith(() => new Response('upstream exploded', { status: 502 }));
    expect(InternalServerError.isInstance(text)).toBe(true);
    expect(text.body).toBe('upstream exploded');
    expect(text.message).toContain('upstream exploded');
  });

  it('an HTML error page says the base URL probably lacks /api', async () => {
    const err = await failWith(
      () =>
        new Response(
          '<!DOCTYPE html><html><head><title>Sign in</title></head><body>login</body></html>',
          {
            status: 404,
            headers: { 'content-type': 'text/html; charset=utf-8' },
          },
        ),
    );
    expect(HtmlResponseError.isInstance(err)).toBe(true);
    expect(APIError.isInstance(err)).toBe(true);
    expect(err.status).toBe(404);
    expect(err.message).toContain('"/api"');
    expect(err.message).toContain('Sign in');
  });

  it('a 200 with text/html where JSON was expected is an HtmlResponseError too', async () => {
    const err = await failWith(
      () =>
        new Response('<html><body>app shell</body></html>', {
          status: 200,
          headers: { 'content-type': 'text/html' },
        }),
    );
    expect(HtmlResponseError.isInstance(err)).toBe(true);
    expect(err.status).toBe(200);
    expect(err.message).toMatch(/base URL probably lacks the "\/api" prefix/);
  });

  it('the raw api client also throws HtmlResponseError on a 200 HTML page', async () => {
    const { fetch } = mockFetch(
      () => new Response('<html></html>', { headers: { 'content-type': 'text/html' } }),
    );
    const kis = client(fetch);
    await expect(kis.api.GET('/svc-api/ingestion')).rejects.toSatisfy((e) =>
      HtmlResponseError.isInstance(e),
    );
  });

  it('a 429 exposes retryAfterMs', async () => {
    const err = await failWith(() => json({ detail: 'slow down' }, 429, { 'retry-after': '7' }));
    expect(RateLimitError.isInstance(err)).toBe(true);
    expect((err as RateLimitError).retryAfterMs).toBe(7000);
  });

  it('a 2xx body that is not JSON is an APIError naming the call', async () => {
    const err = await failWith(
      () => new Response('not json', { status: 200, headers: { 'content-type': 'text/plain' } }),
    );
    expect(APIError.isInstance(err)).toBe(true);
    expect(err.message).toContain('not JSON');
  });
});

describe('isInstance across copies of the package', () => {
  it('src and dist classes recognise each other’s errors (Symbol.for brand)', () => {
    const fromDist = new dist.NotFoundError('x', { status: 404 });
    expect(fromDist).not.toBeInstanceOf(NotFoundError);
    expect(NotFoundError.isInstance(fromDist)).toBe(true);
    expect(APIError.isInstance(fromDist)).toBe(true);
    expect(KisError.isInstance(fromDist)).toBe(true);
    expect(ConflictError.isInstance(fromDist)).toBe(false);
    const fromSrc = new APITimeoutError('t');
    expect(dist.APITimeoutError.isInstance(fromSrc)).toBe(true);
    expect(dist.APIConnectionError.isInstance(fromSrc)).toBe(true);
    expect(dist.APIUserAbortError.isInstance(fromSrc)).toBe(false);
    expect(KisError.isInstance(new Error('plain'))).toBe(false);
    expect(KisError.isInstance({ message: 'duck' })).toBe(false);
    expect(KisError.isInstance(null)).toBe(false);
  });
});

describe('serialisation', () => {
  it('toJSON and util.inspect show status, body and request id but never the key', async () => {
    const err = await failWith(() =>
      json({ detail: `invalid key ${API_KEY}` }, 401, {
        'x-request-id': 'abc-1',
        'set-cookie': 'a=b',
      }),
    );
    expect(AuthenticationError.isInstance(err)).toBe(true);
    const asJson = JSON.parse(JSON.stringify(err));
    expect(asJson).toMatchObject({ name: 'AuthenticationError', status: 401, requestId: 'abc-1' });
    expect(asJson.headers).toBeUndefined();
    const shown = inspect(err, { depth: 10 });
    expect(shown).toContain('AuthenticationError');
    expect(shown).toContain('abc-1');
    for (const text of [err.message, JSON.stringify(err), shown, String(err.stack)]) {
      expect(text).not.toContain(API_KEY);
    }
    expect(JSON.stringify(err)).toContain('[REDACTED]');
  });

  it('connection and abort errors are typed', async () => {
    const { fetch } = mockFetch(() => {
      throw Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
          code: 'ECONNREFUSED',
        }),
      });
    });
    const kis = client(fetch, { maxRetries: 0 });
    const err = await kis.ingestion.list().catch((e) => e);
    expect(APIConnectionError.isInstance(err)).toBe(true);
    expect(APITimeoutError.isInstance(err)).toBe(false);
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.code).toBe('ECONNREFUSED');
    // a library code outside, the system code inside: the system code wins
    const { fetch: nested } = mockFetch(() => {
      throw Object.assign(new Error('other side closed'), {
        code: 'UND_ERR_SOCKET',
        cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      });
    });
    const reset = await client(nested, { maxRetries: 0 })
      .ingestion.list()
      .catch((e) => e);
    expect(reset.code).toBe('ECONNRESET');
    const ac = new AbortController();
    ac.abort();
    const aborted = await kis.ingestion.list({ signal: ac.signal }).catch((e) => e);
    expect(APIUserAbortError.isInstance(aborted)).toBe(true);
  });
});

describe('refusals of editions, plans, releases, syncs and scopes', () => {
  const refused = async (status: number, body: unknown) => {
    const kis = client(mockFetch(() => json(body, status)).fetch, { maxRetries: 0 });
    return kis.identity.me().catch((e: unknown) => e);
  };

  it('a 402 FEATURE_NOT_AVAILABLE is a FeatureUnavailableError naming the plan', async () => {
    const err = (await refused(402, {
      error_code: 'FEATURE_NOT_AVAILABLE',
      detail: 'This feature requires the Business plan.',
      required_tier: 'business',
    })) as FeatureUnavailableError;
    expect(FeatureUnavailableError.isInstance(err)).toBe(true);
    expect(err).toMatchObject({ reason: 'plan', requiredTier: 'business', status: 402 });
    expect(err.message).toContain('business plan');
  });

  it('a 403 says why: limited key, role, permission', async () => {
    const limited = (await refused(403, {
      detail: 'Access denied. User has limited permissions.',
    })) as PermissionDeniedError;
    expect(limited.reason).toBe('limited-key');
    const role = (await refused(403, {
      detail: 'Access denied. User is not a curator or admin.',
    })) as PermissionDeniedError;
    expect(role.reason).toBe('not-curator-or-admin');
  });
});
