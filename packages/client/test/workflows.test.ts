import { describe, expect, it } from 'vitest';
import {
  ConnectorSetupError,
  checkIngestionRequest,
  DocumentValidationError,
  deriveDocumentId,
  InternalServerError,
  normalizeDocumentId,
} from '../src/index.js';
import { type Call, client, doc, json, mockFetch } from './helpers.js';

describe('client-side validation from the spec', () => {
  const cases: Array<[string, unknown, string]> = [
    [
      'text of wrong type',
      { ...doc(1), sections: [{ text: 5 }] },
      'document.sections[0].text: must be string',
    ],
    [
      'missing semantic_identifier',
      { sections: [{ text: 'x' }], metadata: {} },
      'document.semantic_identifier: is required',
    ],
    [
      'missing metadata',
      { semantic_identifier: 'a', sections: [{ text: 'x' }] },
      'document.metadata: is required',
    ],
    [
      'sections not a list',
      { ...doc(1), sections: { text: 'x' } },
      'document.sections: must be array',
    ],
    [
      'section with neither text nor image',
      { ...doc(1), sections: [{}] },
      'document.sections[0]: must have text or image_file_id',
    ],
    [
      'metadata value not string',
      { ...doc(1), metadata: { team: 3 } },
      'document.metadata.team: must be string or array',
    ],
    [
      'bad date-time',
      { ...doc(1), doc_updated_at: 'yesterday' },
      'document.doc_updated_at: must be a date-time',
    ],
    [
      'owner field type',
      { ...doc(1), primary_owners: [{ email: 42 }] },
      'document.primary_owners[0].email: must be string or null',
    ],
    [
      'chunk_count type',
      { ...doc(1), chunk_count: '3' },
      'document.chunk_count: must be integer or null',
    ],
  ];

  it.each(cases)(
    '%s → field named in the error, no request sent',
    async (_name, document, expected) => {
      const { fetch, calls } = mockFetch(() => json({ already_existed: false }));
      const kis = client(fetch);
      const err = await kis.ingestDocument(document as never, { ccPairId: 1 }).catch((e) => e);
      expect(DocumentValidationError.isInstance(err)).toBe(true);
      expect(err.message).toContain(expected);
      expect(err.field).toBe(expected.split(':')[0]);
      expect(calls).toHaveLength(0);
    },
  );

  it('a valid document passes; checkIngestionRequest reports issues without throwing', async () => {
    expect(await checkIngestionRequest({ document: doc(1), cc_pair_id: 2 })).toEqual([]);
    expect(
      await checkIngestionRequest({ document: { ...doc(1), sections: [{ image_file_id: 'f1' }] } }),
    ).toEqual([]);
    const issues = await checkIngestionRequest({
      document: { ...doc(1), sections: [{ text: 5 }] },
    });
    expect(issues[0]).toEqual({
      path: 'document.sections[0].text',
      message: 'must be string',
      keyword: 'type',
    });
    expect((await checkIngestionRequest({ document: doc(1), cc_pair_id: 'x' }))[0]?.path).toBe(
      'cc_pair_id',
    );
  });

  it('accepts what deployed servers accept: a date-time without offset, a bare date, a null id', async () => {
    for (const doc_updated_at of ['2026-11-22T17:25:02.123456', '2026-11-22 17:25', '2026-11-22']) {
      expect(await checkIngestionRequest({ document: { ...doc(1), doc_updated_at } })).toEqual([]);
    }
    const { fetch, calls } = mockFetch(() =>
      json({ already_existed: false, document_id: 'ingestion_api_Null_id' }),
    );
    const kis = client(fetch);
    const r = await kis.ingestDocument({ ...doc(1), id: null, semantic_identifier: 'Null id' });
    // the id is fixed client-side (the raw form the server derives) so retries are upserts
    expect(calls[0]?.body).toMatchObject({ document: { id: 'ingestion_api_Null id' } });
    expect(r.documentId).toBe('ingestion_api_Null_id');
  });

  it('validate: false sends without checking', async () => {
    const { fetch, calls } = mockFetch(() => json({ already_existed: false, document_id: 'x' }));
    const kis = client(fetch);
    await kis.ingestDocument({ ...doc(1), sections: [{ text: 5 }] } as never, { validate: false });
    expect(calls).toHaveLength(1);
  });
});

describe('document ids', () => {
  it('deriveDocumentId matches Python quote(s, safe="") after spaces → _', () => {
    expect(deriveDocumentId('Hello World')).toBe('ingestion_api_Hello_World');
    expect(deriveDocumentId('Q3 report / draft')).toBe('ingestion_api_Q3_report_%2F_draft');
    expect(deriveDocumentId("a!b'c(d)e*f~g.h-i_j")).toBe(
      'ingestion_api_a%21b%27c%28d%29e%2Af~g.h-i_j',
    );
    expect(deriveDocumentId('été 100%')).toBe('ingestion_api_%C3%A9t%C3%A9_100%25');
    expect(deriveDocumentId('a+b=c&d?e#f:g;h@i,j$k')).toBe(
      'ingestion_api_a%2Bb%3Dc%26d%3Fe%23f%3Ag%3Bh%40i%2Cj%24k',
    );
    expect(deriveDocumentId('😀')).toBe('ingestion_api_%F0%9F%98%80');
    expect(normalizeDocumentId('docs/a b.md')).toBe('docs%2Fa_b.md');
    expect(() => normalizeDocumentId('\ud800')).toThrow(/surrogate/);
  });

  it('ingestDocument fixes a missing id client-side so the server stores the derived id', async () => {
    const { fetch, calls } = mockFetch((c) =>
      json({
        already_existed: false,
        document_id: normalizeDocumentId((c.body as { document: { id: string } }).document.id),
      }),
    );
    const kis = client(fetch);
    const { id: _drop, ...noId } = doc(1);
    const r = await kis.ingestDocument(
      { ...noId, semantic_identifier: 'Q3 report / draft' },
      { ccPairId: 4 },
    );
    expect(calls[0]?.body).toMatchObject({
      document: { id: 'ingestion_api_Q3 report / draft' },
      cc_pair_id: 4,
    });
    expect(r).toEqual({ documentId: deriveDocumentId('Q3 report / draft'), alreadyExisted: false });
  });
});

const jira = {
  name: 'Jira',
  source: 'jira' as const,
  input_type: 'poll' as const,
  access_type: 'PUBLIC' as const,
  connector_specific_config: { jira_base_url: 'https://x.atlassian.net', project_key: 'K' },
  refresh_freq: 3600,
};
const web = {
  ...jira,
  source: 'web' as const,
  connector_specific_config: {
    base_url: 'https://example.com',
    web_connector_type: 'single' as const,
  },
};
const file = {
  ...jira,
  source: 'file' as const,
  connector_specific_config: { file_locations: [] },
};

function server(routes: Record<string, (c: Call) => Response>) {
  return mockFetch((c) => {
    const key = `${c.method} ${new URL(c.url).pathname.replace('/api', '')}`;
    const route = routes[key];
    // FastAPI's answer to a route it does not have
    if (!route) return json({ detail: 'Not Found' }, 404);
    return route(c);
  });
}

describe('setupConnector', () => {
  it('file/web use credential 0 without listing credentials; sends lower-case access_type', async () => {
    const { fetch, calls } = server({
      'POST /manage/admin/connector': () => json({ id: 11, credential: null }),
      'PUT /manage/connector/11/credential/0': () =>
        json({ success: true, message: 'ok', data: 21 }),
    });
    const kis = client(fetch);
    const r = await kis.setupConnector({ connector: { ...web, name: 'Site' } });
    expect(r).toEqual({ connectorId: 11, credentialId: 0, ccPairId: 21 });
    expect(calls.map((c) => c.method)).toEqual(['POST', 'PUT']);
    expect(calls[0]?.body).toMatchObject({ access_type: 'public', source: 'web' });
    expect(calls[1]?.body).toEqual({ name: 'Site', access_type: 'public' });
    expect(calls[1]?.headers.get('content-type')).toBe('application/json');
  });

  it("'auto' picks the credential whose source matches", async () => {
    const { fetch, calls } = server({
      'GET /manage/admin/credential': () =>
        json([
          { id: 3, source: 'slack' },
          { id: 5, source: 'jira' },
        ]),
      'POST /manage/admin/connector': () => json({ id: 12 }),
      'PUT /manage/connector/12/credential/5': () => json({ success: true, data: 30 }),
    });
    const r = await client(fetch).setupConnector({ connector: jira });
    expect(r).toEqual({ connectorId: 12, credentialId: 5, ccPairId: 30 });
    expect(calls).toHaveLength(3);
  });

  it('no matching credential: error lists the sources available and creates nothing', async () => {
    const { fetch, calls } = server({
      'GET /manage/admin/credential': () =>
        json([
          { id: 3, source: 'slack' },
          { id: 4, source: 'github' },
        ]),
    });
    const err = await client(fetch)
      .setupConnector({ connector: jira })
      .catch((e) => e);
    expect(ConnectorSetupError.isInstance(err)).toBe(true);
    expect(err.stage).toBe('credential');
    expect(err.connectorId).toBeNull();
    expect(err.message).toContain('no credential has source "jira"');
    expect(err.message).toContain('github, slack');
    expect(calls.map((c) => c.method)).toEqual(['GET']);
  });

  it('several matching credentials: asks for an explicit id', async () => {
    const { fetch } = server({
      'GET /manage/admin/credential': () =>
        json([
          { id: 3, source: 'jira' },
          { id: 4, source: 'jira' },
        ]),
    });
    const err = await client(fetch)
      .setupConnector({ connector: jira })
      .catch((e) => e);
    expect(err.message).toContain('ids 3, 4');
  });

  it('an explicit credential id is checked against the listing; no data → ccPairId null', async () => {
    const { fetch, calls } = server({
      'GET /manage/admin/credential': () => json([{ id: 9, source: 'jira' }]),
      'POST /manage/admin/connector': () => json({ id: 13 }),
      'PUT /manage/connector/13/credential/9': () => json({ success: true }),
    });
    const r = await client(fetch).setupConnector({ connector: jira, credential: 9 });
    expect(r).toEqual({ connectorId: 13, credentialId: 9, ccPairId: null });
    expect(calls.map((c) => c.method)).toEqual(['GET', 'POST', 'PUT']);
  });

  it('an unknown or wrong-source explicit credential creates nothing', async () => {
    const { fetch, calls } = server({
      'GET /manage/admin/credential': () =>
        json([
          { id: 3, source: 'slack' },
          { id: 9, source: 'jira' },
        ]),
    });
    const unknown = await client(fetch)
      .setupConnector({ connector: jira, credential: 99 })
      .catch((e) => e);
    expect(unknown.stage).toBe('credential');
    expect(unknown.problem).toEqual({
      kind: 'unknown-credential',
      credentialId: 99,
      availableIds: [3, 9],
    });
    expect(unknown.message).toContain('credential 99 does not exist (credential ids: 3, 9)');
    const mismatch = await client(fetch)
      .setupConnector({ connector: jira, credential: 3 })
      .catch((e) => e);
    expect(mismatch.problem).toEqual({
      kind: 'credential-source-mismatch',
      credentialId: 3,
      credentialSource: 'slack',
      source: 'jira',
    });
    expect(calls.map((c) => c.method)).toEqual(['GET', 'GET']);
  });

  it('credential 0 (the default empty one) is taken as given', async () => {
    const { fetch, calls } = server({
      'POST /manage/admin/connector': () => json({ id: 17 }),
      'PUT /manage/connector/17/credential/0': () => json({ success: true, data: 40 }),
    });
    const r = await client(fetch).setupConnector({
      connector: web,
      credential: 0,
    });
    expect(r).toEqual({ connectorId: 17, credentialId: 0, ccPairId: 40 });
    expect(calls).toHaveLength(2);
  });

  it('association failure: the error says the connector exists under its id', async () => {
    const { fetch } = server({
      'GET /manage/admin/credential': () => json([{ id: 9, source: 'jira' }]),
      'POST /manage/admin/connector': () => json({ id: 14 }),
      'PUT /manage/connector/14/credential/9': () => json({ detail: 'credential not found' }, 500),
    });
    const err = await client(fetch, { maxRetries: 0 })
      .setupConnector({ connector: jira, credential: 9 })
      .catch((e) => e);
    expect(ConnectorSetupError.isInstance(err)).toBe(true);
    expect(err.stage).toBe('associate');
    expect(err.connectorId).toBe(14);
    expect(err.status).toBe(500);
    expect(InternalServerError.isInstance(err.cause)).toBe(true);
    expect(err.message).toContain('Connector 14 exists but is not associated with credential 9');
    expect(err.problem).toEqual({ kind: 'request-failed', reason: expect.any(String) });
  });

  it('association answering success:false is an error too', async () => {
    const { fetch } = server({
      'POST /manage/admin/connector': () => json({ id: 15 }),
      'PUT /manage/connector/15/credential/0': () =>
        json({ success: false, message: 'pair already exists' }),
    });
    const err = await client(fetch)
      .setupConnector({ connector: file })
      .catch((e) => e);
    expect(err.stage).toBe('associate');
    expect(err.connectorId).toBe(15);
    expect(err.problem).toEqual({ kind: 'refused', reason: 'pair already exists' });
    expect(err.message).toContain('pair already exists');
  });

  it('success:false after our own retry is treated as done (first attempt landed)', async () => {
    let n = 0;
    const { fetch } = server({
      'POST /manage/admin/connector': () => json({ id: 16 }),
      'PUT /manage/connector/16/credential/0': () =>
        ++n === 1
          ? json({ detail: 'gateway' }, 502)
          : json({ success: false, message: 'already exists' }),
    });
    const r = await client(fetch).setupConnector({ connector: file });
    expect(r).toEqual({ connectorId: 16, credentialId: 0, ccPairId: null });
  });

  it("a deployed server's duplicate answer (data = the connector id) is never taken for a pair id", async () => {
    let n = 0;
    const { fetch } = server({
      'POST /manage/admin/connector': () => json({ id: 18 }),
      'PUT /manage/connector/18/credential/0': () =>
        ++n === 1
          ? json({ detail: 'gateway' }, 502)
          : json({ success: false, message: 'Connector 18 already has Credential 0', data: 18 }),
    });
    const r = await client(fetch).setupConnector({ connector: file });
    expect(r).toEqual({ connectorId: 18, credentialId: 0, ccPairId: null });
  });

  it('create failure: stage create, no connector id', async () => {
    const { fetch } = server({
      'GET /manage/admin/credential': () => json([{ id: 1, source: 'jira' }]),
      'POST /manage/admin/connector': () =>
        json({ detail: [{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }] }, 422),
    });
    const err = await client(fetch)
      .setupConnector({ connector: jira, credential: 1 })
      .catch((e) => e);
    expect(err.stage).toBe('create');
    expect(err.connectorId).toBeNull();
    expect(err.status).toBe(422);
    expect(err.message).toContain('name: Field required');
  });
});

describe('multipart uploads', () => {
  it('updatePrivateKey sends the five parts as multipart/form-data', async () => {
    const { fetch, calls } = mockFetch(() =>
      json({ credential_json: {}, admin_public: true, source: 'sharepoint' }),
    );
    const kis = client(fetch);
    const bytes = new Uint8Array([0x30, 0x82, 0x01, 0x02]);
    const r = await kis.credentials.updatePrivateKey(7, {
      name: 'sp',
      credentialJson: { tenant: 't' },
      file: { data: bytes, fileName: 'key.pfx' },
      fieldKey: 'pfx',
      typeDefinitionKey: 'sharepoint_pfx_file',
    });
    expect(r.source).toBe('sharepoint');
    const call = calls[0] as Call;
    expect(call.method).toBe('PUT');
    expect(call.url).toBe('https://kis.test/api/manage/admin/credential/private-key/7');
    expect(call.rawBody).toBeInstanceOf(FormData);
    const form = call.rawBody as FormData;
    expect(form.get('name')).toBe('sp');
    expect(JSON.parse(String(form.get('credential_json')))).toEqual({ tenant: 't' });
    expect(form.get('field_key')).toBe('pfx');
    expect(form.get('type_definition_key')).toBe('sharepoint_pfx_file');
    const file = form.get('uploaded_file') as File;
    expect(file.name).toBe('key.pfx');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
    // the wire form really is multipart with a boundary
    const wire = new Request('http://x', { method: 'PUT', body: form });
    expect(wire.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(call.headers.get('content-type')).toBeNull();
  });

  it('updatePrivateKey rejects bad input with the field named', async () => {
    const kis = client(mockFetch(() => json({})).fetch);
    const base = {
      name: 'n',
      credentialJson: '{}',
      file: new Blob(['x']),
      fieldKey: 'f',
      typeDefinitionKey: 't',
    };
    await expect(
      kis.credentials.updatePrivateKey(1, { ...base, credentialJson: '{oops' }),
    ).rejects.toThrow(/credentialJson is not valid JSON/);
    await expect(
      kis.credentials.updatePrivateKey(1, { ...base, credentialJson: '[1]' }),
    ).rejects.toThrow(/credentialJson must be a JSON object/);
    await expect(kis.credentials.updatePrivateKey(1, { ...base, fieldKey: '' })).rejects.toThrow(
      /fieldKey must be a non-empty string/,
    );
    await expect(kis.credentials.updatePrivateKey(-1, base)).rejects.toThrow(
      /credentialId must be an integer/,
    );
  });

  it('files.upload sends one files part per file; uploadImage returns the file_id', async () => {
    const { fetch, calls } = mockFetch((c) => {
      const names = (c.rawBody as FormData).getAll('files').map((f) => (f as File).name);
      return json({
        user_files: names.map((name, i) => ({
          id: i + 1,
          name,
          file_id: `fid-${name}`,
          status: 'COMPLETED',
        })),
        rejected_files: [],
      });
    });
    const kis = client(fetch);
    const r = await kis.files.upload([
      new File([new Uint8Array([1])], 'a.png', { type: 'image/png' }),
      { data: new Uint8Array([2]), fileName: 'b.png', contentType: 'image/png' },
    ]);
    expect(r.user_files.map((f) => f.file_id)).toEqual(['fid-a.png', 'fid-b.png']);
    expect(calls[0]?.url).toBe('https://kis.test/api/user/projects/file/upload');
    const img = await kis.files.uploadImage({ data: new Uint8Array([3]), fileName: 'c.png' });
    expect(img.fileId).toBe('fid-c.png');
    expect(img.file.name).toBe('c.png');
  });

  it('uploadImage reports a rejected file with the server reason', async () => {
    const { fetch } = mockFetch(() =>
      json({
        user_files: [],
        rejected_files: [{ file_name: 'x.exe', reason: 'unsupported type' }],
      }),
    );
    await expect(client(fetch).files.uploadImage({ data: 'x', fileName: 'x.exe' })).rejects.toThrow(
      'The server rejected "x.exe": unsupported type',
    );
  });
});

describe('resource methods', () => {
  it('build the right requests with bearer auth', async () => {
    const { fetch, calls } = mockFetch((c) =>
      c.method === 'DELETE' ? json({ success: true }) : json([]),
    );
    const kis = client(fetch, { headers: { 'user-agent': 'kis-test' } });
    await kis.credentials.list();
    await kis.ingestion.list();
    await kis.ingestion.listConnectorDocuments(4);
    await kis.ingestion.delete('docs%2Fa.md');
    await kis.credentials
      .create({ credential_json: {}, admin_public: true, source: 'file' })
      .catch(() => undefined);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET https://kis.test/api/manage/admin/credential',
      'GET https://kis.test/api/svc-api/ingestion',
      'GET https://kis.test/api/svc-api/connector-docs/4',
      'DELETE https://kis.test/api/svc-api/ingestion/docs%252Fa.md',
      'POST https://kis.test/api/manage/credential',
    ]);
    for (const c of calls) {
      expect(c.headers.get('authorization')).toBe('Bearer sk-test-SECRET-0123456789abcdef');
      expect(c.headers.get('user-agent')).toBe('kis-test');
    }
  });

  it('the raw api keeps { data, error, response } and honours per-call kis controls', async () => {
    const { fetch, calls } = mockFetch((_c, i) =>
      i === 0 ? json({ detail: 'nope' }, 404) : json([{ id: 1, source: 'file' }]),
    );
    const kis = client(fetch);
    const miss = await kis.api.GET('/manage/admin/credential', { kis: { maxRetries: 0 } } as never);
    expect(miss.response.status).toBe(404);
    expect(miss.error).toEqual({ detail: 'nope' });
    const ok = await kis.api.GET('/manage/admin/credential');
    expect(ok.data).toEqual([{ id: 1, source: 'file' }]);
    expect(calls[1]?.headers.get('authorization')).toMatch(/^Bearer /);
  });

  it('createKisClient rejects bad options naming the option', () => {
    const f = mockFetch(() => json({})).fetch;
    expect(() => client(f, { baseUrl: 'kis.example.com/api' })).toThrow(
      /baseUrl must be an absolute http\(s\) URL/,
    );
    expect(() => client(f, { baseUrl: 'ftp://x/api' })).toThrow(/baseUrl/);
    expect(() => client(f, { apiKey: '' })).toThrow(/apiKey must be a non-empty string/);
    // a header value: a non-ASCII or spaced key could never be sent
    expect(() => client(f, { apiKey: 'ключ-123' })).toThrow(/apiKey must be .*printable ASCII/);
    expect(() => client(f, { apiKey: 'two words' })).toThrow(/apiKey must be .*printable ASCII/);
    expect(() => client(f, { apiKey: 'k\n1' })).toThrow(/apiKey must be .*printable ASCII/);
    expect(() => client(f, { maxRetries: -1 })).toThrow(/maxRetries must be an integer/);
    expect(() => client(f, { timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => client(f, { logLevel: 'verbose' as never })).toThrow(
      /logLevel must be one of off, error, warn, info, debug/,
    );
  });
});

describe('apiWith', () => {
  it('applies per-call controls to raw calls', async () => {
    const { fetch, calls } = mockFetch(() => json({ detail: 'down' }, 503));
    const kis = client(fetch, { maxRetries: 4 });
    const r = await kis
      .apiWith({ maxRetries: 0, headers: { 'x-trace': 't1' } })
      .GET('/svc-api/ingestion');
    expect(r.response.status).toBe(503);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.get('x-trace')).toBe('t1');
    expect(calls[0]?.headers.get('authorization')).toMatch(/^Bearer /);
  });
});
