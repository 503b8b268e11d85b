// Connectors, associations and credentials in each profile. Expected statuses and bodies are
// fixed values taken from compat-notes.md ("Where deployed servers differ from the seed").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator, Profile } from '../src/index.js';
import { connectorBody, PFX_BYTES, start } from './helpers.js';

type Call = Awaited<ReturnType<typeof start>>['call'];

let emulator: Emulator;
let call: Call;

async function use(profile: Profile): Promise<void> {
  ({ emulator, call } = await start({ profile }));
}
afterEach(async () => {
  await emulator.close();
});

async function createConnector(overrides: Record<string, unknown> = {}): Promise<number> {
  const r = await call<{ id: number }>('POST', '/manage/admin/connector', {
    json: connectorBody(overrides),
  });
  expect(r.status).toBe(200);
  return r.body.id;
}

async function createCredential(source: string): Promise<number> {
  const r = await call<{ id: number }>('POST', '/manage/credential', {
    json: { credential_json: { api_token: 'secret-1' }, admin_public: true, source },
  });
  expect(r.status).toBe(200);
  return r.body.id;
}

const PAIR_BODY = { name: 'Pair', access_type: 'public' };
const WEB = { source: 'web', connector_specific_config: { base_url: 'https://docs.example.com' } };

describe('association, deployed profile', () => {
  beforeEach(() => use('deployed'));

  it('an unknown connector or credential: 500 INTERNAL_ERROR', async () => {
    const connector = await createConnector();
    for (const path of [
      '/manage/connector/999/credential/0',
      `/manage/connector/${connector}/credential/999`,
    ]) {
      const r = await call('PUT', path, { json: PAIR_BODY });
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error_code: 'INTERNAL_ERROR', detail: 'Unexpected error' });
    }
  });

  it('the body is required and `name` is required in it: 422 in the deployed shape', async () => {
    const connector = await createConnector(WEB);
    const noName = await call('PUT', `/manage/connector/${connector}/credential/0`, {
      json: { access_type: 'public' },
    });
    expect(noName.status).toBe(422);
    expect(noName.body).toEqual({
      status_code: 422,
      message:
        "[{'type': 'missing', 'loc': ('body', 'name'), 'msg': 'Field required', 'input': {'access_type': 'public'}}]",
      data: null,
    });
    const noBody = await call('PUT', `/manage/connector/${connector}/credential/0`);
    expect(noBody.status).toBe(422);
    expect(noBody.body).toEqual({
      status_code: 422,
      message: "[{'type': 'missing', 'loc': ('body',), 'msg': 'Field required', 'input': None}]",
      data: null,
    });
  });

  it('a pair that exists: 200 success false, data = the connector id', async () => {
    const connector = await createConnector(WEB);
    const path = `/manage/connector/${connector}/credential/0`;
    const first = await call('PUT', path, { json: PAIR_BODY });
    expect(first.body).toMatchObject({ success: true, data: 2 });
    const again = await call('PUT', path, { json: PAIR_BODY });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      success: false,
      message: `Connector ${connector} already has Credential 0`,
      data: connector,
    });
  });

  it("no check that the credential's source matches the connector's; processing_mode is stored", async () => {
    const connector = await createConnector({ source: 'jira' });
    const slack = await createCredential('slack');
    const mismatched = await call('PUT', `/manage/connector/${connector}/credential/${slack}`, {
      json: { ...PAIR_BODY, processing_mode: 'FILE_SYSTEM' },
    });
    expect(mismatched.status).toBe(200);
    expect(mismatched.body).toMatchObject({ success: true });
    const zero = await call('PUT', `/manage/connector/${connector}/credential/0`, {
      json: PAIR_BODY,
    });
    expect(zero.body).toMatchObject({ success: true });
    const pairs = emulator.state.pairs().filter((p) => p.connector_id === connector);
    expect(pairs.map((p) => p.processing_mode)).toEqual(['FILE_SYSTEM', 'REGULAR']);
  });

  it('processing_mode must be REGULAR, FILE_SYSTEM or RAW_BINARY', async () => {
    const connector = await createConnector(WEB);
    const r = await call<{ status_code: number; message: string }>(
      'PUT',
      `/manage/connector/${connector}/credential/0`,
      { json: { ...PAIR_BODY, processing_mode: 'regular' } },
    );
    expect(r.status).toBe(422);
    expect(r.body.message).toContain("'loc': ('body', 'processing_mode')");
  });

  it('DELETE on the same path dissociates: success true, then success false', async () => {
    const connector = await createConnector(WEB);
    const path = `/manage/connector/${connector}/credential/0`;
    await call('PUT', path, { json: PAIR_BODY });
    expect((await call('DELETE', path)).body).toEqual({
      success: true,
      message: 'Credential 0 removed from Connector',
      data: connector,
    });
    expect((await call('DELETE', path)).body).toEqual({
      success: false,
      message: 'Connector already does not have Credential 0',
      data: connector,
    });
    expect(emulator.state.pairs().some((p) => p.connector_id === connector)).toBe(false);
  });
});

describe('association, seed profile (both paths)', () => {
  beforeEach(() => use('seed'));

  it.each(['/manage/admin/connector/{c}/credential/{k}', '/manage/connector/{c}/credential/{k}'])(
    '%s: 404 for an unknown connector, data null for an existing pair',
    async (template) => {
      const path = (c: number, k: number) =>
        template.replace('{c}', String(c)).replace('{k}', String(k));
      const unknown = await call('PUT', path(999, 0), { json: PAIR_BODY });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: 'Connector 999 does not exist' });
      const connector = await createConnector(WEB);
      await call('PUT', path(connector, 0), { json: PAIR_BODY });
      const again = await call('PUT', path(connector, 0), { json: PAIR_BODY });
      expect(again.body).toEqual({
        success: false,
        message: `Connector ${connector} already has Credential 0`,
        data: null,
      });
    },
  );

  it("keeps the source checks: 400 when the credential's source differs", async () => {
    const connector = await createConnector({ source: 'jira' });
    const slack = await createCredential('slack');
    const r = await call('PUT', `/manage/connector/${connector}/credential/${slack}`, {
      json: PAIR_BODY,
    });
    expect(r.status).toBe(400);
  });

  it('422 in the seed shape on the deployed path without name', async () => {
    const connector = await createConnector(WEB);
    const r = await call('PUT', `/manage/connector/${connector}/credential/0`, {
      json: { access_type: 'public' },
    });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      detail: [{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }],
    });
  });
});

describe('connector creation', () => {
  it('deployed: a name and source that exist already: 400 { detail }', async () => {
    await use('deployed');
    const body = connectorBody({ name: 'Docs', source: 'web' });
    const first = await call('POST', '/manage/admin/connector', { json: body });
    expect(first.body).toEqual({ id: 1, credential: null });
    const again = await call('POST', '/manage/admin/connector', { json: body });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      detail: "Connector with name 'Docs' and source 'web' already exists",
    });
    const otherSource = await call('POST', '/manage/admin/connector', {
      json: { ...body, source: 'file' },
    });
    expect(otherSource.body).toEqual({ id: 2, credential: null });
  });

  it('seed: the same name and source twice makes two connectors', async () => {
    await use('seed');
    const body = connectorBody({ name: 'Docs', source: 'web' });
    expect((await call('POST', '/manage/admin/connector', { json: body })).body).toEqual({
      id: 1,
      credential: null,
    });
    expect((await call('POST', '/manage/admin/connector', { json: body })).body).toEqual({
      id: 2,
      credential: null,
    });
  });

  it.each([
    ['deployed', 'PUBLIC', 422],
    ['deployed', 'public', 200],
    ['seed', 'PUBLIC', 200],
  ] as const)('%s: access_type %s is %i', async (profile, accessType, status) => {
    await use(profile);
    const r = await call('POST', '/manage/admin/connector', {
      json: connectorBody({ access_type: accessType }),
    });
    expect(r.status).toBe(status);
    if (status === 422) {
      expect(r.body).toEqual({
        status_code: 422,
        message:
          "[{'type': 'enum', 'loc': ('body', 'access_type'), 'msg': \"Input should be 'public', 'private' or 'sync'\", 'input': 'PUBLIC'}]",
        data: null,
      });
    }
  });

  it.each([
    ['deployed', 422],
    ['seed', 200],
  ] as const)('%s: source requesttracker (dropped in 4.0) is %i', async (profile, status) => {
    await use(profile);
    const r = await call('POST', '/manage/admin/connector', {
      json: connectorBody({ source: 'requesttracker', connector_specific_config: {} }),
    });
    expect(r.status).toBe(status);
  });
});

describe('credentials', () => {
  it.each(['seed', 'deployed'] as const)(
    '%s: credential 0 has source not_applicable, name null, and every listed field',
    async (profile) => {
      await use(profile);
      const r = await call<Record<string, unknown>[]>('GET', '/manage/admin/credential');
      expect(r.body[0]).toEqual({
        id: 0,
        source: 'not_applicable',
        credential_json: {},
        admin_public: true,
        name: null,
        curator_public: false,
        groups: [],
        user_id: null,
        user_email: null,
        time_created: expect.any(String),
        time_updated: expect.any(String),
      });
    },
  );

  it('deployed: list items carry groups [] whatever the credential was created with', async () => {
    await use('deployed');
    await call('POST', '/manage/credential', {
      json: { credential_json: {}, admin_public: true, source: 'jira', groups: [3] },
    });
    const r = await call<{ groups: number[] }[]>('GET', '/manage/admin/credential');
    expect(r.body.map((c) => c.groups)).toEqual([[], []]);
  });
});

describe('private key', () => {
  function keyForm(overrides: Record<string, string | File> = {}): FormData {
    const parts: Record<string, string | File> = {
      name: 'SharePoint certificate',
      credential_json: JSON.stringify({ sp_client_id: 'client-2' }),
      uploaded_file: new File([PFX_BYTES], 'certificate.pfx'),
      field_key: 'sp_private_key',
      type_definition_key: 'sharepoint_pfx_file',
      ...overrides,
    };
    const form = new FormData();
    for (const [k, v] of Object.entries(parts)) form.append(k, v);
    return form;
  }

  it.each([
    [
      'an unknown credential',
      99,
      {},
      401,
      { detail: 'Credential 99 does not exist or does not belong to user' },
    ],
    [
      'credential 0 (belongs to no user)',
      0,
      {},
      401,
      { detail: 'Credential 0 does not exist or does not belong to user' },
    ],
    [
      'a file whose name does not end in .pfx',
      1,
      { uploaded_file: new File([PFX_BYTES], 'certificate.p12') },
      400,
      { detail: 'Invalid file type. Only .pfx files are supported.' },
    ],
    [
      'a .pfx file that is not PKCS#12',
      1,
      { uploaded_file: new File(['-----BEGIN KEY-----'], 'certificate.pfx') },
      400,
      {
        detail:
          'Invalid file content. The uploaded file does not appear to be a valid PKCS#12 (.pfx) file.',
      },
    ],
    [
      'an unknown type_definition_key',
      1,
      { type_definition_key: 'pem_file' },
      400,
      { message: "'pem_file' is not a valid PrivateKeyFileTypes" },
    ],
  ] as const)('deployed, %s: %i', async (_what, id, overrides, status, body) => {
    await use('deployed');
    await createCredential('sharepoint');
    const r = await call('PUT', `/manage/admin/credential/private-key/${id}`, {
      form: keyForm(overrides),
    });
    expect(r.status).toBe(status);
    expect(r.body).toEqual(body);
  });

  it.each(['seed', 'deployed'] as const)(
    '%s: bad JSON in credential_json is 400, and credential 0 is never changed',
    async (profile) => {
      await use(profile);
      const bad = await call<{ detail: string }>('PUT', '/manage/admin/credential/private-key/0', {
        form: keyForm({ credential_json: '{"a": ' }),
      });
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/^Invalid JSON in credential_json/);
      const zero = await call('PUT', '/manage/admin/credential/private-key/0', {
        form: keyForm(),
      });
      expect(zero.status).toBe(profile === 'deployed' ? 401 : 400);
      const [credential0] = emulator.state.credentials();
      expect(credential0).toMatchObject({
        id: 0,
        name: null,
        credential_json_keys: [],
        private_key_file: null,
      });
    },
  );
});
