import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index.js';
import { connectorBody, doc, start } from './helpers.js';

type Call = Awaited<ReturnType<typeof start>>['call'];
type Issue = { loc: (string | number)[]; msg: string; type: string; input?: unknown };
type Issues = { detail: Issue[] };

let emulator: Emulator;
let call: Call;

beforeAll(async () => {
  ({ emulator, call } = await start({ maxBodyBytes: 64 * 1024 }));
});
afterAll(async () => {
  await emulator.close();
});

function ingestBody(document: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { json: { document, ...extra } };
}

describe('JSON bodies are validated against the spec (FastAPI-style 422)', () => {
  it('missing required fields: type missing, loc down to the field', async () => {
    const document = doc();
    delete document.semantic_identifier;
    delete document.metadata;
    const r = await call<Issues>('POST', '/svc-api/ingestion', ingestBody(document));
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      { loc: ['body', 'document', 'semantic_identifier'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'document', 'metadata'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('wrong types: string_type, int_type, list_type, bool_type, with the input', async () => {
    const r = await call<Issues>(
      'POST',
      '/svc-api/ingestion',
      ingestBody(doc({ semantic_identifier: 5, sections: 'text', from_ingestion_api: 'yes' }), {
        cc_pair_id: 'one',
      }),
    );
    expect(r.status).toBe(422);
    const byLoc = Object.fromEntries(r.body.detail.map((d) => [d.loc.join('.'), d]));
    expect(byLoc['body.document.semantic_identifier']).toMatchObject({
      type: 'string_type',
      msg: 'Input should be a valid string',
      input: 5,
    });
    expect(byLoc['body.document.sections']?.type).toBe('list_type');
    expect(byLoc['body.document.from_ingestion_api']?.type).toBe('bool_type');
    expect(byLoc['body.cc_pair_id']).toMatchObject({ type: 'int_type', input: 'one' });
  });

  it('enum values: type enum listing the allowed values', async () => {
    const r = await call<Issues>('POST', '/manage/admin/connector', {
      json: connectorBody({ access_type: 'everyone', input_type: 'push' }),
    });
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d) => [d.loc, d.type])).toEqual([
      [['body', 'input_type'], 'enum'],
      [['body', 'access_type'], 'enum'],
    ]);
    expect(r.body.detail[1]?.msg).toContain("'public'");
  });

  it('sections: the closest alternative (text or image section) is reported', async () => {
    const r = await call<Issues>(
      'POST',
      '/svc-api/ingestion',
      ingestBody(doc({ sections: [{ link: 'https://x' }, { text: 7 }, { text: 'fine' }] })),
    );
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      {
        loc: ['body', 'document', 'sections', 0, 'text'],
        msg: 'Field required',
        type: 'missing',
      },
      {
        loc: ['body', 'document', 'sections', 1, 'text'],
        msg: 'Input should be a valid string',
        type: 'string_type',
        input: 7,
      },
    ]);
  });

  it('metadata values must be strings or lists of strings', async () => {
    const r = await call<Issues>(
      'POST',
      '/svc-api/ingestion',
      ingestBody(doc({ metadata: { k: 1, ok: ['a'], fine: 'b', bad: ['a', 2] } })),
    );
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d) => [d.loc.join('.'), d.type])).toEqual([
      ['body.document.metadata.k', 'string_type'],
      ['body.document.metadata.bad.1', 'string_type'],
    ]);
  });

  it('formats: a doc_updated_at that is not an ISO 8601 date-time', async () => {
    const r = await call<Issues>(
      'POST',
      '/svc-api/ingestion',
      ingestBody(doc({ doc_updated_at: 'yesterday' })),
    );
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      {
        loc: ['body', 'document', 'doc_updated_at'],
        msg: 'Input should be a valid datetime (ISO 8601, e.g. 2024-01-31T12:00:00Z or 2024-01-31)',
        type: 'datetime_parsing',
        input: 'yesterday',
      },
    ]);
  });

  it('formats: 30 February is not a date-time', async () => {
    const r = await call<Issues>(
      'POST',
      '/svc-api/ingestion',
      ingestBody(doc({ doc_updated_at: '2026-02-30T10:00:00' })),
    );
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({
      loc: ['body', 'document', 'doc_updated_at'],
      type: 'datetime_parsing',
    });
  });

  it('JSON nested more than 512 levels deep: 422 naming the field, nothing stored, never a 500', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 3000; i++) deep = [deep];
    const before = emulator.state.indexing().total;
    const r = await call<Issues>(
      'POST',
      '/svc-api/ingestion',
      ingestBody(doc({ id: 'deep', additional_info: deep })),
    );
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      {
        loc: ['body', 'document', 'additional_info'],
        msg: 'Value error, JSON nested more than 512 levels deep',
        type: 'value_error',
      },
    ]);
    expect(emulator.state.indexing().total).toBe(before);

    const credential = await call<Issues>('POST', '/manage/credential', {
      json: { credential_json: { a: deep }, admin_public: true, source: 'web' },
    });
    expect(credential.status).toBe(422);
    expect(credential.body.detail[0]?.loc).toEqual(['body', 'credential_json', 'a']);
    expect((await call('GET', '/manage/admin/credential')).status).toBe(200);

    // 500 levels in all is within the bound
    let ok: unknown = 'x';
    for (let i = 0; i < 500; i++) ok = { k: ok };
    const accepted = await call('POST', '/svc-api/ingestion', {
      json: { document: doc({ id: 'deep-ok', additional_info: ok }) },
    });
    expect(accepted.status).toBe(200);
  });

  it('a JSON body sent with another Content-Type: 422 as FastAPI answers; none at all is read as JSON', async () => {
    const body = JSON.stringify({ document: doc({ id: 'typed' }) });
    const plain = await call<Issues>('POST', '/svc-api/ingestion', {
      raw: body,
      contentType: 'text/plain',
    });
    expect(plain.status).toBe(422);
    expect(plain.body.detail[0]).toMatchObject({ loc: ['body'], type: 'model_attributes_type' });
    expect(plain.body.detail[0]?.msg).toContain('send Content-Type: application/json');
    const json = await call('POST', '/svc-api/ingestion', {
      raw: body,
      contentType: 'application/json; charset=utf-8',
    });
    expect(json.status).toBe(200);
  });

  it('a body that is not a JSON object', async () => {
    const r = await call<Issues>('POST', '/svc-api/ingestion', { json: [1, 2] });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body'], type: 'dict_type' });
  });

  it('malformed JSON: 422 json_invalid with the error position', async () => {
    const r = await call<Issues>('POST', '/svc-api/ingestion', {
      raw: '{"document": {',
      contentType: 'application/json',
    });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ type: 'json_invalid', msg: 'JSON decode error' });
    expect(r.body.detail[0]?.loc[0]).toBe('body');
    expect(typeof r.body.detail[0]?.loc[1]).toBe('number');
  });

  it('a missing required body: 422 missing at ["body"]', async () => {
    const r = await call<Issues>('POST', '/svc-api/ingestion');
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      { loc: ['body'], msg: 'Field required', type: 'missing', input: null },
    ]);
  });
});

describe('multipart bodies are validated', () => {
  it('a missing part: 422 at ["body", part]', async () => {
    const form = new FormData();
    form.append('name', 'n');
    form.append('credential_json', '{}');
    form.append('uploaded_file', new File([new Uint8Array([1])], 'k.pfx'));
    form.append('type_definition_key', 'sharepoint_pfx_file');
    const r = await call<Issues>('PUT', '/manage/admin/credential/private-key/0', { form });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      { loc: ['body', 'field_key'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('text where a file is expected, and a non-multipart body', async () => {
    const form = new FormData();
    form.append('files', 'just text');
    const r = await call<Issues>('POST', '/user/file/upload', { form });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'files', 0], type: 'value_error' });
    const json = await call<Issues>('POST', '/user/file/upload', { json: { files: [] } });
    expect(json.status).toBe(422);
    expect(json.body.detail).toEqual([
      { loc: ['body', 'files'], msg: 'Field required', type: 'missing' },
    ]);
  });
});

describe('body size limit', () => {
  it('answers 413 with a clear message for a declared length over the limit', async () => {
    const big = 'x'.repeat(70 * 1024);
    const r = await call<{ detail: string }>(
      'POST',
      '/svc-api/ingestion',
      ingestBody(doc({ sections: [{ text: big }] })),
    );
    expect(r.status).toBe(413);
    expect(r.body.detail).toMatch(/at most 65536 bytes/);
    // the emulator's own seeding route outside /api has the same limit
    const seeded = await fetch(`${emulator.url}/_emulator/documents`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${emulator.adminKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ document: doc({ sections: [{ text: big }] }) }),
    });
    expect(seeded.status).toBe(413);
  });

  it('answers 413 for a chunked body (no Content-Length) over the limit, and stays up', async () => {
    const url = new URL(`${emulator.baseUrl}/svc-api/ingestion`);
    const { status, body } = await new Promise<{ status: number; body: string }>(
      (resolve, reject) => {
        const req = request(
          url,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${emulator.adminKey}`,
              'content-type': 'application/json',
              'transfer-encoding': 'chunked',
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              text += chunk;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        const chunk = 'x'.repeat(16 * 1024);
        for (let i = 0; i < 8; i++) req.write(chunk);
        req.end();
      },
    );
    expect(status).toBe(413);
    expect(JSON.parse(body).detail).toMatch(/too large/);
    const ok = await call('GET', '/svc-api/ingestion');
    expect(ok.status).toBe(200);
  });

  it('accepts a chunked body under the limit', async () => {
    const payload = JSON.stringify({ document: doc({ id: 'chunked' }) });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        new URL(`${emulator.baseUrl}/svc-api/ingestion`),
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${emulator.adminKey}`,
            'content-type': 'application/json',
            'transfer-encoding': 'chunked',
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write(payload.slice(0, 10));
      req.end(payload.slice(10));
    });
    expect(status).toBe(200);
    expect(emulator.state.document('chunked')).toBeDefined();
  });
});

describe('routing', () => {
  it('unknown paths under /api: 404 { detail }; a known path with another method: 405', async () => {
    const unknown = await fetch(`${emulator.baseUrl}/nope`, {
      headers: { authorization: `Bearer ${emulator.adminKey}` },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: 'Not Found' });
    const wrongMethod = await fetch(`${emulator.baseUrl}/manage/admin/connector`, {
      headers: { authorization: `Bearer ${emulator.adminKey}` },
    });
    expect(wrongMethod.status).toBe(405);
  });
});
